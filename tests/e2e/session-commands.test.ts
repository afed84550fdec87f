// The commands over saved sessions: headless runs listed, resumed and continued; `agent0 sessions
// delete`; --session; the /sessions picker and /new. Saving and resuming itself: sessions.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSession } from "../../src/session/writer.js";
import { startFakeOllama, type FakeOllama, type WireMessage } from "../fakes/ollama-server.js";
import { appOn, eachTest, runHeadless, sessionFiles, sleep, waitUntil, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

/** What the model was sent, without the system prompt: role and content in order. */
const dialogue = (messages: WireMessage[]) =>
  messages.filter((m) => m.role !== "system").map((m) => ({ role: m.role, content: m.content }));

describe("session commands end to end", () => {
  let fake: FakeOllama;
  let sb: Sandbox;
  const { open, headless, opened } = appOn(() => ({ sb, host: fake.url }), MODEL.name);
  eachTest(
    (s) => (sb = s),
    () => [...opened(), fake],
  );

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
    // "idle" alone may be the frame from before the run began: wait for its answer too (/new waits for no run).
    await tui.waitFor((s) => (s.match(/^ok$/gm) ?? []).length === 2 && /^idle · /m.test(s));

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
