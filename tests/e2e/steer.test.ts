// Issue "Steer the work": one end-to-end check per item, in tmux against the fake Ollama: modes,
// todos, ! commands and @ paths here; the input box and the quit summary in steer-input.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { appOn, eachTest, runHeadless, sessionFiles, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

describe("steering the work", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  const { open, opened } = appOn(() => ({ sb, host: fake!.url }), MODEL.name);
  eachTest(
    (s) => (sb = s),
    () => [...opened(), fake],
  );

  it("Shift+Tab shows auto-edit then plan; in plan mode create_file is refused without a dialog", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: "plan.txt", content: "x\n" } }] }] },
        { steps: [{ text: "1. Create plan.txt\n2. Fill it in" }] },
      ],
    });
    const tui = open();
    await tui.waitFor("Ask anything");
    tui.press("BTab");
    await tui.waitFor(/── auto-edit/);
    expect(tui.screen()).toMatch(/· auto-edit ·/);
    tui.press("BTab");
    await tui.waitFor(/── plan mode: read-only/);
    tui.type("make plan.txt");
    tui.press("Enter");
    const screen = await tui.waitFor("Plan ready.");
    expect(screen).not.toContain("Allow create_file?");
    expect(fs.existsSync(path.join(sb.project, "plan.txt"))).toBe(false);
    const refusal = fake.chats[1]!.messages.at(-1)!;
    expect(refusal.role).toBe("tool");
    expect(refusal.content).toContain("plan mode");
    // Said before the user's message, which the model reads last (issue 43); the system prompt, the
    // front of every request, stays as it was.
    expect(fake.chats[0]!.messages.at(-2)!.content).toContain("You are in plan mode");
    expect(fake.chats[0]!.messages.at(-1)!.role).toBe("user");
    expect(fake.chats[0]!.messages[0]!.content).not.toContain("You are in plan mode");
    // y: switch to auto-edit and carry the plan out.
    tui.press("y");
    await fake.waitForChats(3);
    expect(fake.chats[2]!.messages.at(-1)!.content).toBe("Carry out the plan.");
    expect(fake.chats[2]!.messages.at(-2)!.content).toContain("Plan mode is off");
    await tui.waitFor(/── auto-edit/);
  });

  it("todo_write shows three items with their markers, and they survive --resume", async () => {
    const todos = [
      { content: "Read the parser", status: "completed" },
      { content: "Fix the off-by-one", status: "in_progress" },
      { content: "Run the tests", status: "pending" },
    ];
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "todo_write", arguments: { todos } }] }] },
        { steps: [{ text: "Working on it.", delayMs: 1500 }] },
      ],
    });
    const tui = open([], { width: 100, height: 40 });
    await tui.waitFor("Ask anything");
    tui.type("fix the parser");
    tui.press("Enter");
    // Pinned above the input while the run goes (and in the transcript).
    let screen = await tui.waitFor("▸ Fix the off-by-one");
    expect(screen).toContain("✓ Read the parser");
    expect(screen).toContain("☐ Run the tests");
    await tui.waitFor("Working on it.");
    tui.press("C-d");
    await tui.waitFor("[exit 0]");
    const id = path.basename(sessionFiles(sb)[0]!, ".jsonl");

    const resumed = open(["--resume", id], { width: 100, height: 40 });
    screen = await resumed.waitFor("▸ Fix the off-by-one");
    expect(screen).toContain("✓ Read the parser");
    expect(screen).toContain("☐ Run the tests");
  });

  it("!echo runs the command, shows X-42, and the next request carries it with no model call of its own", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "Noted the output." }] }] });
    const tui = open();
    await tui.waitFor("Ask anything");
    tui.type("!echo X-$((6*7))");
    await tui.waitFor("! shell mode");
    tui.press("Enter");
    await tui.waitFor("X-42");
    tui.type("what did it print?");
    tui.press("Enter");
    await tui.waitFor("Noted the output.");
    // The command made no model call of its own: the one request is the question's.
    expect(fake.chats).toHaveLength(1);
    const sent = fake.chats[0]!.messages.map((m) => m.content).join("\n");
    expect(sent).toContain("$ echo X-$((6*7))");
    expect(sent).toContain("X-42");
    expect(fake.chats[0]!.messages.at(-1)!.content).toBe("what did it print?");
  });

  it("`explain @src/deep/fi` + Tab completes the path and the request carries the file", async () => {
    fs.mkdirSync(path.join(sb.project, "src", "deep"), { recursive: true });
    fs.writeFileSync(path.join(sb.project, "src", "deep", "file.ts"), "export const canary = 'ATTACHED-7731';\n");
    fs.writeFileSync(path.join(sb.project, "src", "deep", "other.md"), "other\n");
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "It exports a canary." }] }] });
    const tui = open();
    await tui.waitFor("Ask anything");
    tui.type("explain @src/deep/fi");
    await tui.waitFor("@src/deep/file.ts");
    tui.press("Tab");
    // Completed, with a space after it, and the menu closed.
    await tui.waitFor(/› explain @src\/deep\/file\.ts\s*$/);
    tui.press("Enter");
    const screen = await tui.waitFor("It exports a canary.");
    expect(screen).toContain("attached 1 file");
    const last = fake.chats[0]!.messages.at(-1)!.content;
    expect(last.startsWith("explain @src/deep/file.ts")).toBe(true);
    expect(last).toContain("ATTACHED-7731");

    // Headless -p attaches the same way.
    const headless = await runHeadless(sb, [
      "--host",
      fake.url,
      "--model",
      MODEL.name,
      "-p",
      "explain @src/deep/file.ts",
    ]);
    expect(headless.code).toBe(0);
    expect(fake.chats.at(-1)!.messages.at(-1)!.content).toContain("ATTACHED-7731");
  });
});
