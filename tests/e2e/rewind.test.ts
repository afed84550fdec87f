import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type WireMessage } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest, sessionFiles, sleep } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

/** The input box: below the rule that names the mode. */
const inputOf = (screen: string) => screen.slice(screen.lastIndexOf("shift+tab to cycle"));

const userTexts = (messages: WireMessage[]) => messages.filter((m) => m.role === "user").map((m) => m.content);

// Claude Code's /rewind (Esc Esc): pick an earlier prompt, then restore code and conversation,
// conversation only or code only; the prompt comes back into the input to edit and resend.
describe("/rewind end to end", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );
  const file = (name: string) => path.join(sb.project, name);

  /** Three turns: a.txt made, a.txt edited, b.txt made. */
  async function threeTurns(): Promise<void> {
    fs.writeFileSync(file("a.txt"), "one\n");
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: "notes.txt", content: "n1\n" } }] }] },
        { steps: [{ text: "First done." }] },
        {
          steps: [
            { toolCalls: [{ name: "edit_file", arguments: { path: "a.txt", old_string: "one", new_string: "two" } }] },
          ],
        },
        { steps: [{ text: "Second done." }] },
        { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: "b.txt", content: "b\n" } }] }] },
        { steps: [{ text: "Third done." }] },
        { steps: [{ text: "Resent answer." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name, "--permission-mode", "yolo"], {
      width: 120,
      height: 40,
    });
    for (const [prompt, answer] of [
      ["make notes", "First done."],
      ["change a to two", "Second done."],
      ["add b", "Third done."],
    ]) {
      await tui.ask(prompt!, answer!);
    }
    expect(fs.readFileSync(file("a.txt"), "utf8")).toBe("two\n");
    expect(fs.existsSync(file("b.txt"))).toBe(true);
  }

  it("Esc Esc lists the messages newest first; code and conversation go back to before the chosen one", async () => {
    await threeTurns();
    tui!.press("Escape");
    await sleep(100);
    tui!.press("Escape");
    // tmux 3.3 paints as bytes come: the dialog's title can show before its rows, so wait for the rows.
    const TITLE = "Rewind to before which message?";
    const listed = (s: string) => s.includes(TITLE) && s.slice(s.indexOf(TITLE)).includes("make notes");
    let screen = await tui!.waitFor(listed);
    // Newest first, each with the files its turn changed.
    const list = screen.slice(screen.indexOf(TITLE));
    const order = ["add b", "change a to two", "make notes"].map((t) => list.indexOf(t));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(list).toMatch(/\d\d:\d\d {2}add b/);
    expect(list).toContain("changed a.txt");
    expect(list).toContain("changed b.txt");
    // Choose "change a to two" (the second item), then "code and conversation".
    tui!.press("Down");
    tui!.press("Enter");
    screen = await tui!.waitFor("Restore code and conversation");
    expect(screen).toContain("Restore conversation only");
    expect(screen).toContain("Restore code only");
    tui!.press("Enter");
    screen = await tui!.waitFor("Rewound the files:");
    expect(screen).toContain("restored a.txt");
    expect(screen).toContain("removed b.txt");
    expect(fs.readFileSync(file("a.txt"), "utf8")).toBe("one\n");
    expect(fs.existsSync(file("b.txt"))).toBe(false);
    expect(fs.readFileSync(file("notes.txt"), "utf8")).toBe("n1\n");
    // The message is back in the input, ready to edit and send.
    expect(inputOf(screen)).toContain("› change a to two");
    await tui!.ask(" please", "Resent answer.");
    expect(userTexts(fake!.chats[6]!.messages)).toEqual(["make notes", "change a to two please"]);

    // The session file keeps the rewound turns, marked, and --resume shows the rewound state.
    const [sessionFile] = sessionFiles(sb);
    const lines = fs
      .readFileSync(sessionFile!, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => l.type === "reset" && l.reason === "rewind")).toBe(true);
    expect(fs.readFileSync(sessionFile!, "utf8")).toContain("add b");
  });

  it("conversation only keeps the files; code only keeps the conversation; a file changed outside agent0 asks first", async () => {
    await threeTurns();
    tui!.send("/rewind");
    await tui!.waitFor("Rewind to before which message?");
    tui!.press("Enter"); // "add b"
    await tui!.waitFor("Restore code only");
    tui!.press("Down");
    await sleep(100);
    tui!.press("Down");
    await sleep(100);
    tui!.press("Enter"); // code only
    let screen = await tui!.waitFor("Rewound the files:");
    expect(fs.existsSync(file("b.txt"))).toBe(false);
    expect(screen).not.toContain("Rewound the conversation");
    expect(inputOf(screen)).not.toContain("add b");

    // The user edits a.txt by hand; rewinding the code over it asks first.
    fs.writeFileSync(file("a.txt"), "mine\n");
    tui!.send("/rewind");
    await tui!.waitFor("Rewind to before which message?");
    tui!.press("Down");
    tui!.press("Enter"); // "change a to two"
    await tui!.waitFor("Restore code and conversation");
    tui!.press("Enter");
    screen = await tui!.waitFor("Changed outside agent0 since then: a.txt");
    expect(fs.readFileSync(file("a.txt"), "utf8")).toBe("mine\n");
    tui!.press("Enter"); // No, keep them: a.txt is still the user's after the rewind below

    // Conversation only: the files stay as they are.
    tui!.send("/rewind");
    await tui!.waitFor("Rewind to before which message?");
    tui!.press("Down");
    tui!.press("Enter");
    await tui!.waitFor("Restore conversation only");
    tui!.press("Down");
    tui!.press("Enter");
    screen = await tui!.waitFor("Rewound the conversation");
    expect(fs.readFileSync(file("a.txt"), "utf8")).toBe("mine\n");
    expect(inputOf(screen)).toContain("› change a to two");
  });
});
