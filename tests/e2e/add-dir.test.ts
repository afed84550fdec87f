import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest, runHeadless } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

/** A folder beside the project (not inside it), as `--add-dir ../shared` names it. */
function sharedFolder(sb: Sandbox): string {
  const dir = path.join(path.dirname(sb.project), "shared");
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "config.txt"), "level = low\n");
  return dir;
}

// Claude Code's `--add-dir` ("additional working directories for Claude to access"; /add-dir in a session).
describe("--add-dir end to end", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("TUI: the model reads and edits a file in the added folder, and is told of it", async () => {
    const shared = sharedFolder(sb);
    const file = path.join(shared, "config.txt");
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "read_file", arguments: { path: file } }] }] },
        {
          steps: [
            { toolCalls: [{ name: "edit_file", arguments: { path: file, old_string: "low", new_string: "high" } }] },
          ],
        },
        { steps: [{ text: "Raised the level." }] },
      ],
    });
    tui = await Tui.open(
      sb,
      ["--host", fake.url, "--model", MODEL.name, "--permission-mode", "auto-edit", "--add-dir", "../shared"],
      {
        width: 120,
        height: 40,
      },
    );
    tui.send("raise the level in the shared config");
    await tui.waitFor("Raised the level.");
    expect(fs.readFileSync(file, "utf8")).toBe("level = high\n");
    // The read went through: its line numbers reached the model.
    const toolResult = fake.chats[1]!.messages.find((m) => m.role === "tool")!;
    expect(toolResult.content).toContain("level = low");
    const system = fake.chats[0]!.messages.find((m) => m.role === "system")!;
    expect(system.content).toContain(
      `Added folders (the tools may use them too; give their files by absolute path): ${shared}`,
    );
  });

  it("headless: -p reads a file of the added folder; without the flag it is refused", async () => {
    const shared = sharedFolder(sb);
    const file = path.join(shared, "config.txt");
    const replies = () => [
      { steps: [{ toolCalls: [{ name: "read_file", arguments: { path: file } }] }] },
      { steps: [{ text: "Read it." }] },
    ];
    fake = await startFakeOllama({ models: [MODEL], replies: replies() });
    const args = ["-p", "what level?", "--host", fake.url, "--model", MODEL.name];
    const ok = await runHeadless(sb, [...args, "--add-dir", shared]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(fake.chats[1]!.messages.find((m) => m.role === "tool")!.content).toContain("level = low");

    fake.setReplies(replies());
    const refused = await runHeadless(sb, args);
    expect(fake.chats[3]!.messages.find((m) => m.role === "tool")!.content).toMatch(/is outside the project folder/);
    expect(refused.code).toBe(0);
  });

  it("TUI: /add-dir adds a folder in the session; a missing one is refused", async () => {
    const shared = sharedFolder(sb);
    const file = path.join(shared, "config.txt");
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "read_file", arguments: { path: file } }] }] },
        { steps: [{ text: "It is low." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name], { width: 120, height: 40 });
    tui.send("/add-dir ../missing");
    await tui.waitFor("/add-dir ../missing: no such folder");
    tui.send("/add-dir ../shared");
    await tui.waitFor(`Added ${shared}`);
    tui.send("what level?");
    await tui.waitFor("It is low.");
    expect(fake.chats[1]!.messages.find((m) => m.role === "tool")!.content).toContain("level = low");
  });

  it("a missing folder is a clear error at start, in the TUI and headless", async () => {
    const headless = await runHeadless(sb, ["-p", "hi", "--add-dir", "../nowhere"]);
    expect(headless.code).toBe(1);
    expect(headless.stderr).toContain(
      `agent0: --add-dir ../nowhere: no such folder (${path.join(path.dirname(sb.project), "nowhere")}).`,
    );
    tui = new Tui(sb, ["--add-dir", "../nowhere"]);
    await tui.waitFor("[exit 1]");
    expect(tui.screen()).toContain("--add-dir ../nowhere: no such folder");
  });
});
