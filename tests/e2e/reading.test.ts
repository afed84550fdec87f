// Issue 17: reading the work — a view that holds still, an input box that shows what is typed,
// tool output on demand.
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest, sleep } from "./harness.js";

describe("reading the work", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("PgUp during a stream: the rows stay while new lines arrive below", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: [{ steps: Array.from({ length: 300 }, (_, i) => ({ text: `Streamed line ${i}.\n\n`, delayMs: 20 })) }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"], { width: 80, height: 24 });
    await tui.waitFor("Ask anything");
    tui.type("stream please");
    tui.press("Enter");
    await tui.waitFor("Streamed line 40.");
    tui.press("PageUp");
    await tui.waitFor("End to follow");
    const rows = (screen: string) => screen.split("\n").slice(0, 20).join("\n");
    const first = tui.screen();
    // Wait for lines to arrive below (the count grows by 40): the view must not have moved.
    const arrived = (screen: string) => Number(/↓ (\d+) new lines? — End to follow/.exec(screen)?.[1] ?? 0);
    const second = await tui.waitFor((s) => arrived(s) >= arrived(first) + 40);
    expect(rows(second)).toBe(rows(first));
  });

  it("a 300-character line is fully visible while it is typed", async () => {
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b" }] });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"], { width: 80, height: 30 });
    await tui.waitFor("Ask anything");
    const words = Array.from({ length: 60 }, (_, i) => `w${String(i).padStart(3, "0")}`).join(" ");
    const line = (words + " ").repeat(2).slice(0, 300);
    tui.type(line);
    const screen = await tui.waitFor("w059");
    const input = screen.split("\n").slice(-5);
    expect(input[0]).toMatch(/^› w000/);
    expect(input.map((l) => l.slice(2)).join("")).toContain(line.trimEnd());
  });

  it("Ctrl+O shows line 25 of a 50-line command output; a failed command shows its last lines at once", async () => {
    const script = 'for i in $(seq 1 50); do echo "out line $i"; done; exit 1';
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: [
        { steps: [{ toolCalls: [{ name: "run_shell_command", arguments: { command: script } }] }] },
        { steps: [{ text: "The command failed." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b", "--yolo"], { width: 90, height: 70 });
    await tui.waitFor("Ask anything");
    tui.type("run it");
    tui.press("Enter");
    let screen = await tui.waitFor("The command failed.");
    // Collapsed: the failure's last lines are there, the middle is not.
    expect(screen).toContain("out line 50");
    expect(screen).not.toMatch(/out line 25\b/);
    tui.press("C-o");
    screen = await tui.waitFor(/out line 25\b/);
    expect(screen).toContain("exit code 1");
    tui.press("C-o");
    await waitGone(tui, /out line 25\b/);
  });
});

async function waitGone(tui: Tui, what: RegExp): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (!what.test(tui.screen())) return;
    await sleep(50);
  }
  throw new Error(`still on screen: ${String(what)}`);
}
