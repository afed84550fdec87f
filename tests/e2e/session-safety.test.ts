// Never lose a line: two agent0s on one session, a damaged file, and the one recorder the TUI and
// headless runs share (kill -9 mid-answer: session-kill.test.ts; a full disk:
// session-disk-full.test.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dialogue, lastUser, loaded, MODEL } from "./session-files.js";
import { startFakeOllama, type FakeOllama, type Reply, type WireMessage } from "../fakes/ollama-server.js";
import { appOn, eachTest, runHeadless, sessionFiles, type Sandbox } from "./harness.js";

describe("never lose a line", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  const { open, headless, opened } = appOn(() => ({ sb, host: fake!.url }), MODEL.name);
  eachTest(
    (s) => {
      sb = s;
      fake = undefined;
    },
    () => [...opened(), fake],
  );

  it("TUI A and headless B on one session: A's file holds only A's turns, B's turn is a fork, /undo in A touches only A's turn", async () => {
    // Each prompt "make X" creates X.txt with a tool, then answers "made X".
    fake = await startFakeOllama({
      models: [MODEL],
      replies: (chat): Reply => {
        const last = chat.messages.at(-1)!;
        const prompt = lastUser(chat.messages);
        const name = prompt.replace(/^make /, "");
        if (last.role === "tool") return { steps: [{ text: `made ${name}` }] };
        if (prompt.startsWith("make ")) {
          return {
            steps: [{ toolCalls: [{ name: "create_file", arguments: { path: `${name}.txt`, content: `${name}\n` } }] }],
          };
        }
        return { steps: [{ text: `answer to ${prompt}` }] };
      },
    });
    const a = open(["--yolo"], { width: 160 });
    await a.waitFor("Ask anything");
    a.type("make a1");
    a.press("Enter");
    await a.waitFor("made a1");
    await a.waitFor(/^idle · /m);
    const [aFile] = sessionFiles(sb);
    const aId = path.basename(aFile!, ".jsonl");

    const b = await headless(["--resume", aId.slice(0, 8), "-p", "make b1", "--yolo", "--output-format", "json"]);
    expect(b.code).toBe(0);
    const forkId = JSON.parse(b.stdout).session_id as string;
    expect(forkId).not.toBe(aId);
    expect(b.stderr).toMatch(
      new RegExp(
        `Session ${aId.slice(0, 8)} is open in another agent0 \\(pid \\d+\\); continuing as new session ${forkId.slice(0, 8)}`,
      ),
    );
    expect(fs.existsSync(path.join(sb.project, "b1.txt"))).toBe(true);

    a.type("make a2");
    a.press("Enter");
    await a.waitFor("made a2");
    await a.waitFor(/^idle · /m);
    const aMessages = loaded(aFile!).messages;
    expect(aMessages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["make a1", "make a2"]);
    expect(aMessages.some((m) => m.content.includes("b1"))).toBe(false);

    // /undo in A undoes A's last turn: a2.txt goes, B's b1.txt stays, and so does B's fork.
    a.type("/undo");
    a.press("Enter");
    await a.waitFor("Undid the last turn");
    expect(fs.existsSync(path.join(sb.project, "a2.txt"))).toBe(false);
    expect(fs.existsSync(path.join(sb.project, "a1.txt"))).toBe(true);
    expect(fs.existsSync(path.join(sb.project, "b1.txt"))).toBe(true);
    expect(
      loaded(aFile!)
        .messages.filter((m) => m.role === "user")
        .map((m) => m.content),
    ).toEqual(["make a1"]);

    // agent0 sessions: the fork under A, A open now.
    const list = await runHeadless(sb, ["sessions"]);
    const rows = list.stdout.trim().split("\n");
    const aRow = rows.findIndex((r) => r.startsWith(aId));
    expect(rows[aRow]).toMatch(/open now \(pid \d+\)/);
    expect(rows[aRow + 1]).toMatch(new RegExp(`^└ ${forkId}`));

    // The fork resumes with the shared history plus B's turn.
    const again = await headless(["--resume", forkId, "-p", "what happened?"]);
    expect(again.code).toBe(0);
    expect(dialogue(fake.chats.at(-1)!.messages).filter((l) => l.startsWith("user:"))).toEqual([
      "user: make a1",
      "user: make b1",
      "user: what happened?",
    ]);
    a.press("C-d");
    await a.waitFor("[exit 0]");
  });

  it("a garbage line in the middle: resume names its line, and the file's bytes stay as they were", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    expect((await headless(["-p", "first"])).code).toBe(0);
    const [file] = sessionFiles(sb);
    const lines = fs.readFileSync(file!, "utf8").split("\n");
    lines.splice(2, 0, '{"type":"message","at":"x","message":{"role":"wiz', "\u0001\u0002 garbage");
    fs.writeFileSync(file!, lines.join("\n"));
    const bytes = fs.readFileSync(file!);
    const id = path.basename(file!, ".jsonl");

    const tui = open(["--resume", id], { width: 160 });
    const screen = await tui.waitFor("damaged lines skipped");
    expect(screen).toContain(
      `2 damaged lines skipped in session ${id.slice(0, 8)}: lines 3, 4 (the file is left as it is).`,
    );
    expect(screen).toContain("first");
    tui.press("C-d");
    await tui.waitFor("[exit 0]");
    expect(fs.readFileSync(file!).equals(bytes)).toBe(true);

    const list = await runHeadless(sb, ["sessions"]);
    expect(list.stdout).toMatch(/damaged: 2 unreadable lines/);
  });

  it("a headless run and a TUI run of one prompt save the same conversation (one recorder)", async () => {
    fs.writeFileSync(path.join(sb.project, "notes.txt"), "alpha\nbeta\n");
    const script = (chat: { messages: WireMessage[] }): Reply =>
      chat.messages.at(-1)!.role === "tool"
        ? { steps: [{ thinking: "The file has two lines." }, { text: "It holds **alpha** and beta." }] }
        : {
            steps: [
              { text: "Let me read it." },
              { toolCalls: [{ name: "read_file", id: "call_read1", arguments: { path: "notes.txt" } }] },
            ],
          };
    fake = await startFakeOllama({ models: [MODEL], replies: script });
    expect((await headless(["-p", "what is in notes.txt?", "--yolo"])).code).toBe(0);
    const tui = open(["--yolo", "what is in notes.txt?"]);
    await tui.waitFor("It holds alpha and beta.");
    await tui.waitFor(/^idle · /m);
    tui.press("C-d");
    await tui.waitFor("[exit 0]");
    const files = sessionFiles(sb);
    expect(files).toHaveLength(2);
    // Both date the prompt (each its own time); the rest is the same, line for line.
    const [one, two] = files.map((f) =>
      loaded(f).messages.map((m) => {
        if (m.role === "user") expect(m.sentAt).toEqual(expect.any(Number));
        return { ...m, sentAt: undefined };
      }),
    );
    expect(one!.length).toBe(4);
    expect(one).toEqual(two);
  });
});
