import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type WireMessage } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
// CRLF line ends, no final newline and a non-ASCII character: "old bytes exactly" means all of them.
const OLD_CONFIG = Buffer.from('name = "démo"\r\nmode = slow\r\nlevel = 3', "utf8");

/** The answer is on screen and the run is over (slash commands wait for that). */
/** What the model was sent, one line per message: role and the start of its content or tool names. */
function transcriptOf(messages: WireMessage[]): string[] {
  return messages
    .filter((m) => m.role !== "system")
    .map(
      (m) =>
        `${m.role}: ${m.tool_calls?.length ? m.tool_calls.map((c) => c.function.name).join(",") : m.content.slice(0, 40)}`,
    );
}

describe("/undo end to end", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  const file = (name: string) => path.join(sb.project, name);

  it("restores the files of the last turn, drops that turn from the conversation, and walks further back", async () => {
    fs.writeFileSync(file("config.toml"), OLD_CONFIG);
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        // Turn 1: one new file.
        { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: "notes.md", content: "# Notes\n" } }] }] },
        { steps: [{ text: "Notes started." }] },
        // Turn 2: a new file and an edit of an existing one.
        {
          steps: [
            {
              toolCalls: [
                { name: "create_file", arguments: { path: "src/fast.ts", content: "export const fast = true;\n" } },
                {
                  name: "edit_file",
                  arguments: { path: "config.toml", old_string: "mode = slow", new_string: "mode = fast" },
                },
              ],
            },
          ],
        },
        { steps: [{ text: "Switched to fast mode." }] },
        // Turn 3, after the undo.
        { steps: [{ text: "Still slow, then." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name, "--permission-mode", "yolo"], {
      width: 100,
      height: 40,
    });
    await tui.waitFor("Ask anything");
    await tui.ask("start a notes file", "Notes started.");
    await tui.ask("make it fast", "Switched to fast mode.");
    expect(fs.readFileSync(file("config.toml"), "utf8")).toContain("mode = fast");
    expect(fs.existsSync(file("src/fast.ts"))).toBe(true);

    tui.type("/undo");
    tui.press("Enter");
    let screen = await tui.waitFor("Undid the last turn:");
    expect(screen).toContain("  restored config.toml");
    expect(screen).toContain("  removed src/fast.ts (created in that turn)");
    expect(screen).not.toContain("shell commands");
    expect(fs.existsSync(file("src/fast.ts"))).toBe(false);
    expect(fs.readFileSync(file("config.toml")).equals(OLD_CONFIG)).toBe(true);
    // The earlier turn's file is untouched.
    expect(fs.readFileSync(file("notes.md"), "utf8")).toBe("# Notes\n");

    await tui.ask("is it fast?", "Still slow, then.");
    const sent = fake.chats[4]!.messages;
    expect(transcriptOf(sent)).toEqual([
      "user: start a notes file",
      "assistant: create_file",
      "tool: Created notes.md (1 line).",
      "assistant: Notes started.",
      "user: is it fast?",
    ]);
    expect(JSON.stringify(sent)).not.toContain("make it fast");
    expect(JSON.stringify(sent)).not.toContain("src/fast.ts");

    // The chat-only turn goes first, then the turn that made notes.md.
    tui.type("/undo");
    tui.press("Enter");
    await tui.waitFor("Undid the last turn (it changed no files).");
    tui.type("/undo");
    tui.press("Enter");
    screen = await tui.waitFor("removed notes.md (created in that turn)");
    expect(fs.existsSync(file("notes.md"))).toBe(false);
    expect(fs.readFileSync(file("config.toml")).equals(OLD_CONFIG)).toBe(true);
    tui.type("/undo");
    tui.press("Enter");
    await tui.waitFor("Nothing to undo.");
  });

  it("keeps a file changed outside agent0 until /undo force, and says shell commands cannot be undone", async () => {
    fs.writeFileSync(file("config.toml"), OLD_CONFIG);
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [
            {
              toolCalls: [
                { name: "run_shell_command", arguments: { command: "echo built > build.log" } },
                {
                  name: "edit_file",
                  arguments: { path: "config.toml", old_string: "level = 3", new_string: "level = 4" },
                },
              ],
            },
          ],
        },
        { steps: [{ text: "Built and raised the level." }] },
      ],
    });
    // Wide enough for the whole notice on one line.
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name, "--permission-mode", "yolo"], {
      width: 140,
      height: 40,
    });
    await tui.waitFor("Ask anything");
    await tui.ask("build and raise the level", "Built and raised the level.");
    expect(fs.readFileSync(file("build.log"), "utf8")).toBe("built\n");

    // The user edits the file by hand after the turn.
    fs.writeFileSync(file("config.toml"), "level = 99 # mine\n");
    tui.type("/undo");
    tui.press("Enter");
    let screen = await tui.waitFor("Not undone:");
    expect(screen).toContain(
      "Not undone: config.toml changed outside agent0 since that turn. Type /undo force to overwrite it anyway.",
    );
    expect(fs.readFileSync(file("config.toml"), "utf8")).toBe("level = 99 # mine\n");

    tui.type("/undo force");
    tui.press("Enter");
    screen = await tui.waitFor("Undid the last turn:");
    expect(screen).toContain("  restored config.toml");
    expect(screen).toContain("That turn ran shell commands; their effects cannot be undone.");
    expect(fs.readFileSync(file("config.toml")).equals(OLD_CONFIG)).toBe(true);
    // What the shell did stays.
    expect(fs.readFileSync(file("build.log"), "utf8")).toBe("built\n");
  });

  it("after /compact, undoes only the turn still in the conversation; the summarized one stays", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: "early.txt", content: "early\n" } }] }] },
        { steps: [{ text: "Early file made." }] },
        { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: "late.txt", content: "late\n" } }] }] },
        { steps: [{ text: "Late file made." }] },
        // /compact: the summary of the first turn.
        { steps: [{ text: "SUMMARY: early.txt was made." }] },
        { steps: [{ text: "Third answer." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name, "--permission-mode", "yolo"], {
      width: 100,
      height: 40,
    });
    await tui.waitFor("Ask anything");
    await tui.ask("make the early file", "Early file made.");
    await tui.ask("make the late file", "Late file made.");
    tui.type("/compact");
    tui.press("Enter");
    await tui.waitFor("compacted:");
    await tui.waitFor(/^idle · /m);
    await fake.waitForChats(5);
    expect(JSON.stringify(fake.chats[4]!.messages)).toContain("make the early file");

    tui.type("/undo");
    tui.press("Enter");
    await tui.waitFor("removed late.txt (created in that turn)");
    expect(fs.existsSync(file("late.txt"))).toBe(false);
    // The first turn lives only inside the summary now: it cannot be taken out, so its file stays.
    tui.type("/undo");
    tui.press("Enter");
    await tui.waitFor("Nothing to undo.");
    expect(fs.readFileSync(file("early.txt"), "utf8")).toBe("early\n");

    await tui.ask("and now?", "Third answer.");
    const sent = JSON.stringify(fake.chats[5]!.messages);
    expect(sent).toContain("SUMMARY: early.txt was made.");
    expect(sent).not.toContain("make the late file");
    expect(sent).not.toContain("late.txt");
    expect(fake.chats[5]!.messages.at(-1)).toMatchObject({ role: "user", content: "and now?" });
  });
});
