import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest } from "./harness.js";

const ANSWER = [
  "# Plan of attack",
  "",
  "This is **very important** and *subtle*.",
  "",
  "Shipped :rocket: at 10:30:00.",
  "",
  "```ts",
  "const answer = 42;",
  "```",
  "",
  "| name | value |",
  "| ---- | ----- |",
  "| alpha | 1 |",
  "| beta | 2 |",
].join("\n");

describe("chatting in the TUI", () => {
  let fake: FakeOllama;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("streams a rendered answer, stops on Esc, answers again, and quits cleanly on Ctrl-D", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b", contextLength: 40960 }],
      replies: [
        { steps: [{ text: ANSWER }] },
        // A long, slow answer to interrupt.
        { steps: Array.from({ length: 400 }, (_, i) => ({ text: `word${i} `, delayMs: 30 })) },
        { steps: [{ text: "Second answer arrived." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"]);
    await tui.waitFor("Ask anything");
    tui.type("explain the plan");
    tui.press("Enter");
    let screen = await tui.waitFor("alpha");
    expect(screen).toContain("Plan of attack");
    expect(screen).not.toContain("# Plan");
    expect(screen).toContain("very important");
    expect(screen).not.toContain("**very");
    // The emoji table loads at the first :name: (scripts/node-emoji-lazy.mjs); times are no names.
    expect(screen).toContain("Shipped 🚀");
    expect(screen).toContain("at 10:30:00.");
    expect(screen).toContain("const answer = 42;");
    expect(screen).toMatch(/alpha\s*│\s*1/);

    tui.type("tell me a long story");
    tui.press("Enter");
    await tui.waitFor("word5");
    const abortWait = fake.waitForAbort(3000);
    tui.press("Escape");
    // The request is aborted (how soon is the bench's to measure, never a test's).
    await abortWait;
    screen = await tui.waitFor("interrupted");
    const lastWord = (s: string) => Math.max(...[...s.matchAll(/\bword(\d+)/g)].map((m) => Number(m[1])));
    const stoppedAt = lastWord(screen);

    tui.type("and now?");
    tui.press("Enter");
    // Events reach the screen in order: whatever the stopped run still had on its way came before
    // the next run's answer, and none of it was shown.
    screen = await tui.waitFor("Second answer arrived.");
    expect(lastWord(screen)).toBe(stoppedAt);

    tui.press("C-d");
    screen = await tui.waitFor("[exit 0]");
    expect(screen).toContain("resume with: agent0 --resume");
    // The alternate screen was left: the shell's own output is visible again.
    expect(tui.tmux("display-message", "-p", "-t", "main", "#{alternate_on}").trim()).toBe("0");
  });

  it("takes the host and model from the config file, and names an invalid key without stopping", async () => {
    fake = await startFakeOllama({
      models: [{ name: "other:1b" }, { name: "llama3.2:3b", contextLength: 8192 }],
      replies: [{ steps: [{ text: "configured answer" }] }],
    });
    fs.writeFileSync(
      path.join(sb.env.XDG_CONFIG_HOME!, "agent0", "config.json"),
      JSON.stringify({ host: fake.url, model: "llama3.2:3b", numCtxCap: "lots" }),
    );
    tui = new Tui(sb, []);
    let screen = await tui.waitFor("numCtxCap");
    expect(screen).toContain(fake.url);
    expect(screen).toContain("llama3.2:3b");
    tui.type("hi");
    tui.press("Enter");
    screen = await tui.waitFor("configured answer");
    expect(fake.chats[0]!.model).toBe("llama3.2:3b");
    expect(fake.chats[0]!.options?.num_ctx).toBe(8192);
  });
});
