import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSession } from "../../src/session/writer.js";
import { startFakeOllama, type FakeOllama, type WireMessage } from "../fakes/ollama-server.js";
import { runHeadless, sandbox, sessionFiles, sleep, Tui, waitUntil, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const SAVED_LINE = /Session (\S+) saved — resume with: agent0 --resume (\S+)/;

/** What the model was sent, without the system prompt: role and content in order. */
const dialogue = (messages: WireMessage[]) =>
  messages.filter((m) => m.role !== "system").map((m) => ({ role: m.role, content: m.content }));

const slowAnswer = { steps: Array.from({ length: 400 }, (_, i) => ({ text: `word${i} `, delayMs: 30 })) };

describe("sessions end to end", () => {
  let fake: FakeOllama;
  let sb: Sandbox;
  const tuis: Tui[] = [];
  const open = (args: string[], opts?: { width?: number; height?: number }) => {
    const tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name, ...args], opts);
    tuis.push(tui);
    return tui;
  };
  const headless = (args: string[]) => runHeadless(sb, [...args, "--host", fake.url, "--model", MODEL.name]);

  beforeEach(() => {
    sb = sandbox();
  });
  afterEach(async () => {
    for (const t of tuis.splice(0)) t.kill();
    await fake?.close();
    sb.cleanup();
  });

  it("quitting prints the id; --resume <prefix> shows the transcript and the model sees the whole history", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "Paris is the capital." }] }, { steps: [{ text: "About two million people." }] }],
    });
    // Wide enough that the saved line is not wrapped.
    const first = open([], { width: 160 });
    await first.waitFor("Ask anything");
    first.type("what is the capital of France?");
    first.press("Enter");
    await first.waitFor("Paris is the capital.");
    await first.waitFor(/^idle · /m);
    first.press("C-d");
    const printed = (await first.waitFor("[exit 0]")).match(SAVED_LINE);
    expect(printed).not.toBeNull();
    const id = printed![1]!;
    expect(printed![2]).toBe(id);
    expect(sessionFiles(sb).map((f) => path.basename(f))).toEqual([`${id}.jsonl`]);

    const second = open(["--resume", id.slice(0, 8)]);
    const screen = await second.waitFor("Paris is the capital.");
    expect(screen).toContain("what is the capital of France?");
    await second.waitFor("Ask anything");
    second.type("how many people live there?");
    second.press("Enter");
    await second.waitFor("About two million people.");
    await second.waitFor(/^idle · /m);
    expect(dialogue(fake.chats[1]!.messages)).toEqual([
      { role: "user", content: "what is the capital of France?" },
      { role: "assistant", content: "Paris is the capital." },
      { role: "user", content: "how many people live there?" },
    ]);
    // The resumed session goes on in the same file.
    const saved = loadSession(sessionFiles(sb)[0]!);
    expect(saved.ok && saved.messages.map((m) => m.content)).toEqual([
      "what is the capital of France?",
      "Paris is the capital.",
      "how many people live there?",
      "About two million people.",
    ]);
  });

  it("an answer stopped with Esc is saved as an interrupted partial answer", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: [slowAnswer] });
    const tui = open([]);
    await tui.waitFor("Ask anything");
    tui.type("tell me a long story");
    tui.press("Enter");
    await tui.waitFor("word5");
    tui.press("Escape");
    await tui.waitFor(/^idle · /m);
    tui.press("C-d");
    await tui.waitFor("[exit 0]");
    const saved = loadSession(sessionFiles(sb)[0]!);
    if (!saved.ok) throw new Error(saved.error);
    expect(saved.messages).toHaveLength(2);
    expect(saved.messages[1]).toMatchObject({ role: "assistant", interrupted: true });
    expect(saved.messages[1]!.content).toMatch(/^word0 word1 word2 word3 word4 word5 /);
  });

  it("after kill -9 mid-answer, the session file holds every completed message and resumes", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "First answer." }] }, slowAnswer] });
    const tui = open([]);
    await tui.waitFor("Ask anything");
    tui.type("first question");
    tui.press("Enter");
    await tui.waitFor("First answer.");
    await tui.waitFor(/^idle · /m);
    tui.type("tell me a long story");
    tui.press("Enter");
    await tui.waitFor("word5");
    const pid = tui.appPid();
    expect(pid).toBeDefined();
    process.kill(pid!, "SIGKILL");
    await tui.waitFor("[exit 137]");

    const files = sessionFiles(sb);
    expect(files).toHaveLength(1);
    const saved = loadSession(files[0]!);
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(saved.messages.slice(0, 3).map((m) => ({ role: m.role, content: m.content }))).toEqual([
      { role: "user", content: "first question" },
      { role: "assistant", content: "First answer." },
      { role: "user", content: "tell me a long story" },
    ]);
    // Beyond these, at most the answer's first words, saved while it streamed, marked interrupted.
    expect(saved.messages.slice(3).every((m) => m.role === "assistant" && m.interrupted)).toBe(true);

    const resumed = open(["--resume", saved.header.id]);
    const screen = await resumed.waitFor("tell me a long story");
    expect(screen).toContain("first question");
    expect(screen).toContain("First answer.");
  });

  it("a session killed while a tool call waited for permission resumes with a well-formed history", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [
            { toolCalls: [{ name: "create_file", id: "call_pending1", arguments: { path: "x.txt", content: "x\n" } }] },
          ],
        },
      ],
    });
    const tui = open([]);
    await tui.waitFor("Ask anything");
    tui.type("make x");
    tui.press("Enter");
    await tui.waitFor("Allow create_file?");
    process.kill(tui.appPid()!, "SIGKILL");
    await tui.waitFor("[exit 137]");

    const r = await headless(["--continue", "-p", "what happened?"]);
    expect(r.code).toBe(0);
    const sent = fake.chats[1]!.messages.filter((m) => m.role !== "system");
    expect(sent.map((m) => [m.role, m.content])).toEqual([
      ["user", "make x"],
      ["assistant", ""],
      ["tool", "Not run: the run was stopped before this tool finished."],
      ["user", "what happened?"],
    ]);
    expect(sent[1]!.tool_calls?.[0]?.id).toBe("call_pending1");
    expect(sent[2]).toMatchObject({ tool_name: "create_file" });
    expect(fs.existsSync(path.join(sb.project, "x.txt"))).toBe(false);
  });

  // Nine headless processes one after another: on a loaded 2-core machine that can take more than 30 s.
  it("headless runs are sessions: listed (a corrupt file is warned about by name), resumed, continued; bad ids fail clearly", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    const ids: string[] = [];
    for (const prompt of ["alpha prompt", "beta prompt", "gamma prompt"]) {
      const r = await headless(["-p", prompt, "--output-format", "json"]);
      expect(r.code).toBe(0);
      ids.push(JSON.parse(r.stdout).session_id as string);
      await sleep(20); // distinct modification times, so "newest first" has one answer
    }
    expect(new Set(ids).size).toBe(3);
    const dir = path.dirname(sessionFiles(sb)[0]!);
    const corrupt = path.join(dir, "0badf00d-0000-4000-8000-000000000000.jsonl");
    fs.writeFileSync(corrupt, "this is not a session header\n");

    const list = await runHeadless(sb, ["sessions"]);
    expect(list.code).toBe(0);
    expect(list.stderr).toBe(`warning: ${corrupt}: not a readable agent0 session (header does not parse)\n`);
    const rows = list.stdout.trim().split("\n");
    expect(rows[0]).toMatch(/^ID\s+UPDATED\s+FOLDER\s+TITLE\s+MESSAGES$/);
    expect(rows.slice(1).map((r) => r.split(/\s+/)[0])).toEqual([...ids].reverse());
    expect(rows[1]).toMatch(/gamma prompt\s+2$/);

    // Resuming the corrupt file is a clear error, and the file is left as it was.
    let r = await headless(["--resume", "0badf00d", "-p", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`agent0: ${corrupt}: not a readable agent0 session (header does not parse)\n`);
    expect(fs.readFileSync(corrupt, "utf8")).toBe("this is not a session header\n");

    // Resume the oldest headless session: the model sees its messages first.
    r = await headless(["--resume", ids[0]!, "-p", "again"]);
    expect(r.code).toBe(0);
    expect(dialogue(fake.chats.at(-1)!.messages)).toEqual([
      { role: "user", content: "alpha prompt" },
      { role: "assistant", content: "ok" },
      { role: "user", content: "again" },
    ]);

    // A newer session of another folder does not count for --continue.
    const elsewhere = path.join(dir, "e15e0000-0000-4000-8000-000000000000.jsonl");
    const header = {
      type: "session",
      version: 1,
      id: path.basename(elsewhere, ".jsonl"),
      created: new Date().toISOString(),
      cwd: "/somewhere/else",
      provider: "ollama",
      model: MODEL.name,
      title: "",
    };
    const message = {
      type: "message",
      at: new Date().toISOString(),
      message: { role: "user", content: "elsewhere prompt" },
    };
    fs.writeFileSync(elsewhere, `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`);

    // --continue picks the newest session of this folder: the one just resumed.
    r = await headless(["--continue", "-p", "once more"]);
    expect(r.code).toBe(0);
    expect(dialogue(fake.chats.at(-1)!.messages).map((m) => m.content)).toEqual([
      "alpha prompt",
      "ok",
      "again",
      "ok",
      "once more",
    ]);

    r = await headless(["--resume", "nosuchid", "-p", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("agent0: No session matches 'nosuchid'. Run `agent0 sessions` to list them.\n");

    // Two sessions whose ids share a prefix: the prefix is ambiguous and both are named.
    const source = fs.readFileSync(path.join(dir, `${ids[1]}.jsonl`), "utf8").split("\n");
    const twins = ["abcdef01-1111-4111-8111-111111111111", "abcdef02-2222-4222-8222-222222222222"];
    for (const twin of twins) {
      const head = { ...JSON.parse(source[0]!), id: twin };
      fs.writeFileSync(path.join(dir, `${twin}.jsonl`), [JSON.stringify(head), ...source.slice(1)].join("\n"));
    }
    r = await headless(["--resume", "abcdef0", "-p", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "agent0: 'abcdef0' matches 2 sessions; give more of the id:\n" +
        `  ${twins[0]}  beta prompt\n` +
        `  ${twins[1]}  beta prompt\n`,
    );
    // A prefix that picks one of them works.
    r = await headless(["--resume", "abcdef02", "-p", "hi"]);
    expect(r.code).toBe(0);
    expect(dialogue(fake.chats.at(-1)!.messages)[0]).toEqual({ role: "user", content: "beta prompt" });
  }, 90_000);

  // Issue 42: sessions can be deleted (ACP's session/delete and here); the list shows each one's title.
  it("`agent0 sessions delete <prefix>` removes a session and its checkpoints; an unknown id fails clearly", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    const ids: string[] = [];
    for (const prompt of ["keep this one", "delete this one"]) {
      const r = await headless(["-p", prompt, "--output-format", "json"]);
      ids.push(JSON.parse(r.stdout).session_id as string);
    }
    const dir = path.dirname(sessionFiles(sb)[0]!);
    fs.mkdirSync(path.join(dir, `${ids[1]}.checkpoints`), { recursive: true });
    const listed = await runHeadless(sb, ["sessions"]);
    expect(listed.stdout).toContain("delete this one");

    const gone = await runHeadless(sb, ["sessions", "delete", ids[1]!.slice(0, 8)]);
    expect(gone.stderr).toBe("");
    expect(gone.stdout).toBe(`Deleted session ${ids[1]} (delete this one).\n`);
    expect(gone.code).toBe(0);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(ids[1]!))).toEqual([]);
    const after = await runHeadless(sb, ["sessions"]);
    expect(after.stdout).toContain("keep this one");
    expect(after.stdout).not.toContain("delete this one");

    const unknown = await runHeadless(sb, ["sessions", "delete", "ffffffff"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("agent0: No session matches 'ffffffff'. Run `agent0 sessions` to list them.\n");
    expect(sessionFiles(sb)).toHaveLength(1);
  });

  it("--session reopens a transcript with its tool lines, diffs and rendered markdown", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: "notes.md", content: "first line\n" } }] }] },
        { steps: [{ text: "Created the **notes** file." }] },
      ],
    });
    const r = await headless(["-p", "write notes", "--yolo", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const id = JSON.parse(r.stdout).session_id as string;
    const tui = open(["--session", id]);
    const screen = await tui.waitFor("Created the notes file.");
    expect(screen).toContain("write notes");
    expect(screen).toContain("✓ create notes.md — created (1 line)");
    expect(screen).toMatch(/1 \+ first line/);
    expect(screen).not.toContain("**notes**");
  });

  it("/sessions opens a picker that opens a session; /new starts a fresh one", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    for (const prompt of ["alpha prompt", "beta prompt"]) {
      expect((await headless(["-p", prompt])).code).toBe(0);
      await sleep(20); // distinct modification times: beta is the newest
    }
    const tui = open([]);
    await tui.waitFor("Ask anything");
    tui.type("/sessions");
    tui.press("Enter");
    const picker = await tui.waitFor("Open a session");
    expect(picker).toMatch(/› [0-9a-f]{8} {2}beta prompt/);
    expect(picker).toMatch(/ {2}[0-9a-f]{8} {2}alpha prompt/);
    tui.press("Down");
    tui.press("Enter");
    await tui.waitFor("› alpha prompt");
    tui.type("continue alpha");
    tui.press("Enter");
    await fake.waitForChats(3);
    expect(dialogue(fake.chats[2]!.messages).map((m) => m.content)).toEqual(["alpha prompt", "ok", "continue alpha"]);
    await tui.waitFor(/^idle · /m);

    tui.type("/new");
    tui.press("Enter");
    await tui.waitFor(/^(?![\s\S]*alpha prompt)/); // the transcript is cleared
    tui.type("fresh start");
    tui.press("Enter");
    await fake.waitForChats(4);
    expect(dialogue(fake.chats[3]!.messages).map((m) => m.content)).toEqual(["fresh start"]);
    await tui.waitFor(/^idle · /m);
    const titles = () =>
      sessionFiles(sb)
        .map((f) => {
          const s = loadSession(f);
          return s.ok ? `${s.meta.title}: ${s.messages.length}` : s.error;
        })
        .sort();
    // The answer's line is written by the recorder right after the screen shows it.
    await waitUntil(() => titles().join() === "alpha prompt: 4,beta prompt: 2,fresh start: 2", 5000, "saved").catch(
      () => undefined,
    );
    expect(titles()).toEqual(["alpha prompt: 4", "beta prompt: 2", "fresh start: 2"]);
  });
});
