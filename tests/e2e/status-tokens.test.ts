// Issue 17's status line, end to end in tmux against the fake servers: the meter shows the model's
// own window, and the token figures hold over /undo and --resume (the capability checks:
// status-truths.test.ts; the elapsed time: status-elapsed.test.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/anthropic-server.js";
import { Tui, type Sandbox, eachTest } from "./harness.js";

describe("a truthful status line", () => {
  let fake: FakeOllama | undefined;
  let anthropic: FakeAnthropic | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  let tui2: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, tui2, fake, anthropic],
  );

  it("an Anthropic model's meter shows its 200k window, and the header its provider and base URL", async () => {
    anthropic = await startFakeAnthropic({ replies: [{ blocks: [{ text: "Hi there." }], inputTokens: 2000 }] });
    sb.env.ANTHROPIC_API_KEY = "sk-test";
    sb.env.ANTHROPIC_BASE_URL = anthropic.url;
    tui = new Tui(sb, ["--model", "anthropic/claude-sonnet-4-5"]);
    let screen = await tui.waitFor("Ask anything");
    expect(screen).toContain(`anthropic · ${anthropic.url}`);
    tui.type("hi");
    tui.press("Enter");
    screen = await tui.waitFor("Hi there.");
    screen = await tui.waitFor("of 200k");
    expect(screen).not.toContain("of 33k");
  });

  it("tokens after /undo and after --resume equal the figure before quitting", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b", contextLength: 40960 }],
      replies: [
        { steps: [{ text: "first answer" }], promptEvalCount: 1200, evalCount: 34 },
        {
          steps: [{ toolCalls: [{ name: "create_file", arguments: { path: "n.txt", content: "x\n" } }] }],
          promptEvalCount: 1500,
          evalCount: 20,
        },
        { steps: [{ text: "created" }], promptEvalCount: 1600, evalCount: 5 },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b", "--yolo"]);
    await tui.waitFor("Ask anything");
    tui.type("one");
    tui.press("Enter");
    await tui.waitFor("first answer");
    tui.type("make n.txt");
    tui.press("Enter");
    await tui.waitFor("created");
    let screen = await tui.waitFor("4.4k tokens this session");
    tui.type("/undo");
    tui.press("Enter");
    await tui.waitFor("Undid the last turn");
    screen = tui.screen();
    // The undone turn's tokens were spent: the total stays; the meter shows the context left.
    expect(screen).toContain("4.4k tokens this session");
    expect(screen).toContain("1.2k of 33k");
    expect(fs.existsSync(path.join(sb.project, "n.txt"))).toBe(false);
    const statusBefore = statusLine(screen);
    tui.press("C-d");
    screen = await tui.waitFor("resume with: agent0 --resume");
    const id = /--resume (\S+)/.exec(screen)![1]!;
    tui2 = new Tui(sb, ["--host", fake.url, "--resume", id]);
    screen = await tui2.waitFor("of 33k");
    expect(statusLine(screen)).toBe(statusBefore);
  }, 30_000);
});

/** The token figures of the status line (the part after the model name). */
function statusLine(screen: string): string {
  const line = screen.split("\n").find((l) => l.includes("tokens this session")) ?? "";
  return line.slice(Math.max(0, line.search(/[▰▱]/))).trim();
}
