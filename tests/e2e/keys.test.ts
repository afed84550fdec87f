import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest } from "./harness.js";

const LONG = Array.from(
  { length: 120 },
  (_, i) => `Paragraph number ${i} says something worth reading about the parser and its flags.`,
).join("\n\n");

describe("reading and typing in the TUI", () => {
  let fake: FakeOllama;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("scrolls with PgUp, the wheel and End; re-wraps on resize; folds thinking until Ctrl+T", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b", capabilities: ["completion", "tools", "thinking"] }],
      replies: [{ steps: [{ thinking: "First I consider the flags.\nThen the parser." }, { text: LONG }] }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"], { width: 100, height: 30 });
    await tui.waitFor("Ask anything");
    tui.type("tell me everything");
    tui.press("Enter");
    await tui.waitFor("Paragraph number 119");
    await tui.waitFor("idle");

    tui.press("PageUp");
    let screen = await tui.waitFor("End to follow");
    expect(screen).not.toContain("Paragraph number 119");
    tui.press("Home");
    screen = await tui.waitFor("✻ First I consider the flags.");
    expect(screen).toContain("Ctrl+T to expand");
    expect(screen).not.toContain("Then the parser.");
    tui.press("C-t");
    await tui.waitFor("Then the parser.");

    tui.press("End");
    await tui.waitFor("Paragraph number 119");
    // SGR mouse wheel up, as a terminal sends it.
    tui.type("\x1b[<64;10;10M\x1b[<64;10;10M\x1b[<64;10;10M");
    screen = await tui.waitFor("End to follow");
    expect(screen).not.toMatch(/Paragraph number 119 says/);
    tui.press("End");
    await tui.waitFor("Paragraph number 119");
    // Alternate-scroll mode: the terminal sends a wheel notch as arrow keys in one write.
    tui.type("\x1b[A\x1b[A\x1b[A\x1b[A\x1b[A\x1b[A");
    screen = await tui.waitFor("End to follow");
    expect(screen).not.toMatch(/Paragraph number 119 says/);
    tui.press("End");
    await tui.waitFor("Paragraph number 119");

    tui.tmux("resize-window", "-t", "main", "-x", "50", "-y", "30");
    screen = await tui.waitFor(/Paragraph number 119 says something worth reading\s*\n\s*about the parser/);
    for (const line of screen.split("\n")) expect([...line].length).toBeLessThanOrEqual(50);
  });

  it("pastes several lines without sending, recalls earlier input with Up, and inserts new lines with Ctrl+J", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: [{ steps: [{ text: "first answer" }] }, { steps: [{ text: "second answer" }] }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"]);
    await tui.waitFor("Ask anything");
    tui.tmux("set-buffer", "line one\nline two");
    tui.tmux("paste-buffer", "-p", "-t", "main");
    await tui.waitFor("line two");
    tui.press("C-j");
    tui.type("line three");
    tui.press("Enter");
    await tui.waitFor("first answer");
    // The paste sent nothing of its own: the one request holds the three lines.
    expect(fake.chats).toHaveLength(1);
    expect(fake.chats[0]!.messages.at(-1)!.content).toBe("line one\nline two\nline three");

    tui.press("Up");
    // The recalled input sits under the transcript's copy of it.
    await tui.waitFor(/line three[\s\S]*line three/);
    tui.press("C-u");
    tui.type("again");
    tui.press("Enter");
    await tui.waitFor("second answer");
    expect(fake.chats[1]!.messages.at(-1)!.content).toBe("line one\nline two\nagain");
  });

  it("emoji and CJK take two columns each and do not break the layout (a dialog's border stays straight)", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: [
        {
          steps: [
            {
              toolCalls: [
                { name: "create_file", arguments: { path: "notes.md", content: "✅ done 🚀 漢字\nplain line\n" } },
              ],
            },
          ],
        },
        { steps: [{ text: "Done ✅ 🚀 漢字 — all good" }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"], { width: 60, height: 24 });
    await tui.waitFor("Ask anything");
    tui.type("write notes");
    tui.press("Enter");
    let screen = await tui.waitFor("Allow create_file");
    const columns = (line: string) =>
      [...line].reduce((n, ch) => n + (/[\u{1F000}-\u{1FFFF}\u2705\u4E00-\u9FFF]/u.test(ch) ? 2 : 1), 0);
    const bordered = screen.split("\n").filter((l) => l.trimEnd().endsWith("│"));
    expect(bordered.some((l) => l.includes("🚀"))).toBe(true);
    expect(new Set(bordered.map((l) => columns(l.trimEnd()))).size).toBe(1);
    tui.press("y");
    screen = await tui.waitFor("all good");
    const lines = screen.split("\n");
    expect(lines.find((l) => l.includes("all good"))).toBe("Done ✅ 🚀 漢字 — all good");
    // The rule above the input (it names the mode) spans the width exactly.
    expect(lines.filter((l) => /^── ask · shift\+tab to cycle ─+$/.test(l)).map((l) => l.length)).toEqual([60]);
  });
});
