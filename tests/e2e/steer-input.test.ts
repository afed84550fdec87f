// Issue "Steer the work", in tmux against the fake Ollama: the input box (the slash menu, history
// across launches, a big paste) and what quitting prints. Modes, todos, ! and @: steer.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { appOn, eachTest, waitUntil, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

describe("steering the work: the input box and the quit summary", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  const { open, opened } = appOn(() => ({ sb, host: fake!.url }), MODEL.name);
  eachTest(
    (s) => (sb = s),
    () => [...opened(), fake],
  );

  it("/co shows a menu with /compact and /context, and nothing lands in the transcript", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    const tui = open();
    await tui.waitFor("Ask anything");
    tui.type("/co");
    const screen = await tui.waitFor("/context");
    expect(screen).toContain("/compact");
    expect(screen).toMatch(/› \/compact|› \/context/);
    expect(screen).not.toMatch(/^[ ›] \/help/m);
    // The transcript (above the status line) holds only the welcome.
    const transcript = screen.slice(0, screen.search(/^idle · /m));
    expect(transcript).not.toMatch(/\/co/);
    tui.press("Escape");
    // The menu closes (a lone Esc is told from an escape sequence after a short wait).
    await waitUntil(() => !tui.screen().includes("/compact"), 3000, "the menu to close");
  });

  it("a prompt typed in one launch is recalled with Up in the next", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    const first = open();
    await first.waitFor("Ask anything");
    first.type("remember this prompt 5521");
    first.press("Enter");
    await fake.waitForChats(1);
    await first.waitFor(/^idle · /m);
    first.press("C-d");
    await first.waitFor("[exit 0]");

    const historyDir = path.join(sb.env.XDG_DATA_HOME!, "agent0", "history");
    expect(
      fs
        .readdirSync(historyDir)
        .map((f) => fs.readFileSync(path.join(historyDir, f), "utf8"))
        .join(""),
    ).toContain("remember this prompt 5521");

    const second = open();
    // The status line shows the context size once settings (and the history) have loaded.
    await second.waitFor(/ of \d+k \(\d+%\)/);
    second.press("Up");
    const screen = await second.waitFor("remember this prompt 5521");
    expect(screen).not.toContain("Ask anything");
  });

  it("a 200-line paste shows as one placeholder line and is sent whole", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "Got the log." }] }] });
    const tui = open();
    await tui.waitFor("Ask anything");
    const lines = Array.from({ length: 200 }, (_, i) => `log line ${i + 1}`);
    tui.tmux("set-buffer", lines.join("\n"));
    tui.tmux("paste-buffer", "-p", "-t", "main");
    const screen = await tui.waitFor("[Pasted text #1 +200 lines]");
    expect(screen).not.toContain("log line 1");
    tui.press("Enter");
    await tui.waitFor("Got the log.");
    expect(fake.chats[0]!.messages.at(-1)!.content).toBe(lines.join("\n"));
  });

  it("quitting prints the turns, tool calls and tokens under the resume line", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "alpha\n");
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [{ toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] }],
          promptEvalCount: 1200,
          evalCount: 30,
        },
        { steps: [{ text: "It says alpha." }], promptEvalCount: 1300, evalCount: 20 },
      ],
    });
    const tui = open();
    await tui.waitFor("Ask anything");
    tui.type("what is in a.txt?");
    tui.press("Enter");
    await tui.waitFor("It says alpha.");
    await tui.waitFor(/^idle · /m);
    tui.press("C-d");
    const screen = await tui.waitFor("[exit 0]");
    expect(screen).toContain("resume with: agent0 --resume");
    expect(screen).toMatch(/\n1 turn · 1 tool call · tokens 2\.5k in \/ 50 out · \d+s\n\[exit 0\]/);
  });
});
