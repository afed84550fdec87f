// Never lose a line (issue 15): two agent0s on one session, a full disk, kill -9 mid-answer,
// a damaged file, and the one recorder the TUI and headless runs share.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSession } from "../../src/session/load.js";
import { startFakeOllama, type FakeOllama, type Reply, type WireMessage } from "../fakes/ollama-server.js";
import { eachTest, runHeadless, sessionFiles, Tui, waitUntil, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const SAVED_LINE = /Session (\S+) saved — resume with: agent0 --resume (\S+)/;

const lastUser = (messages: WireMessage[]) => [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
const dialogue = (messages: WireMessage[]) =>
  messages.filter((m) => m.role !== "system").map((m) => `${m.role}: ${m.content}`);

function loaded(file: string) {
  const s = loadSession(file);
  if (!s.ok) throw new Error(s.error);
  return s;
}

describe("never lose a line", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  const tuis: Tui[] = [];
  eachTest(
    (s) => {
      sb = s;
      fake = undefined;
    },
    () => [...tuis.splice(0), fake],
  );
  const open = (args: string[], opts?: { width?: number; height?: number }) => {
    const tui = new Tui(sb, ["--host", fake!.url, "--model", MODEL.name, ...args], opts);
    tuis.push(tui);
    return tui;
  };
  const headless = (args: string[]) => runHeadless(sb, [...args, "--host", fake!.url, "--model", MODEL.name]);

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

  /**
   * Runs `body` with the app's data folder on a fresh 512 KB tmpfs; skipped (saying why) where a
   * tmpfs cannot be mounted. The tmpfs is unmounted and the terminals closed even when `body` fails.
   */
  async function onSmallDisk(ctx: { skip: (note?: string) => void }, body: (mount: string) => Promise<void>) {
    if (process.getuid?.() !== 0) {
      ctx.skip("needs root to mount a tmpfs: skipped");
      return;
    }
    const mount = path.join(path.dirname(sb.home), "small-disk");
    fs.mkdirSync(mount);
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", mount], { stdio: "ignore" });
    } catch {
      ctx.skip("cannot mount a tmpfs here: skipped");
      return;
    }
    try {
      sb.env.XDG_DATA_HOME = mount;
      fs.mkdirSync(path.join(mount, "agent0", "sessions"), { recursive: true });
      await body(mount);
    } finally {
      for (const t of tuis.splice(0)) t.kill();
      execFileSync("umount", ["-l", mount], { stdio: "ignore" });
    }
  }

  // Long answers: a line that needs new pages of the full disk (a short one can still fit into
  // the last page the file already has).
  const long = (prompt: string) => `answer to ${prompt} ` + "and more ".repeat(500);

  it("a full disk (a small tmpfs): reported, the conversation goes on, everything is written once space is freed", async (ctx) => {
    await onSmallDisk(ctx, async (mount) => {
      const filler = path.join(mount, "filler");
      fake = await startFakeOllama({
        models: [MODEL],
        replies: (chat): Reply => ({ steps: [{ text: long(lastUser(chat.messages)) }] }),
      });
      const tui = open([], { width: 200, height: 120 });
      await tui.waitFor("Ask anything");
      tui.type("first prompt");
      tui.press("Enter");
      await tui.waitFor("answer to first prompt");
      await tui.waitFor(/^idle · /m);
      // The disk fills up while the session is open (its file and checkpoints exist).
      fillUp(filler);
      tui.type("second prompt");
      tui.press("Enter");
      await tui.waitFor("answer to second prompt");
      const screen = await tui.waitFor(/^idle · .*not saved/m);
      expect(screen).toContain(
        "Could not save the session: the disk is full (ENOSPC) — the conversation continues in memory; nothing is lost while agent0 stays open.",
      );
      tui.type("third prompt");
      tui.press("Enter");
      await tui.waitFor("answer to third prompt");
      await tui.waitFor(/^idle · /m);
      // Reported once, and the worker lives on.
      expect(tui.screen().match(/Could not save the session/g)).toHaveLength(1);
      expect(tui.screen()).not.toContain("stopped unexpectedly");

      fs.rmSync(filler);
      tui.type("fourth prompt");
      tui.press("Enter");
      await tui.waitFor("answer to fourth prompt");
      await tui.waitFor("The session is saved again: 4 messages that waited were written.");
      await tui.waitFor(/^idle · /m);
      await waitUntil(() => !/not saved/.test(tui.screen()), 5000, "the not-saved flag to go");
      tui.press("C-d");
      const printed = (await tui.waitFor("[exit 0]")).match(SAVED_LINE);
      expect(printed).not.toBeNull();
      const file = path.join(mount, "agent0", "sessions", `${printed![1]}.jsonl`);
      const s = loaded(file);
      expect(s.damaged).toEqual([]);
      expect(s.messages.map((m) => m.content)).toEqual(
        ["first prompt", "second prompt", "third prompt", "fourth prompt"].flatMap((p) => [p, long(p)]),
      );
      const resumed = await headless(["--resume", printed![1]!, "-p", "fifth prompt"]);
      expect(resumed.code).toBe(0);
      expect(dialogue(fake.chats.at(-1)!.messages)).toEqual([
        ...["first prompt", "second prompt", "third prompt", "fourth prompt"].flatMap((p) => [
          `user: ${p}`,
          `assistant: ${long(p)}`,
        ]),
        "user: fifth prompt",
      ]);
    });
  });

  it("quitting while the disk is still full says the session was not saved, and where a whole copy went", async (ctx) => {
    await onSmallDisk(ctx, async (mount) => {
      fake = await startFakeOllama({
        models: [MODEL],
        replies: (chat): Reply => ({ steps: [{ text: long(lastUser(chat.messages)) }] }),
      });
      const tui = open([], { width: 250, height: 120 });
      await tui.waitFor("Ask anything");
      tui.type("first prompt");
      tui.press("Enter");
      await tui.waitFor("answer to first prompt");
      await tui.waitFor(/^idle · /m);
      fillUp(path.join(mount, "filler"));
      tui.type("second prompt");
      tui.press("Enter");
      await tui.waitFor("answer to second prompt");
      await tui.waitFor(/^idle · .*not saved/m);
      tui.press("C-d");
      const screen = (await tui.waitFor("[exit 1]")).replace(/\n/g, "");
      const said =
        /Session (\S{8}) was NOT fully saved \(the disk is full \(ENOSPC\)\): 1 message could not be written\. The whole conversation was saved to (\S+\.jsonl)/.exec(
          screen,
        );
      expect(said).not.toBeNull();
      const copy = said![2]!;
      try {
        expect(path.dirname(copy)).toBe(os.tmpdir());
        expect(loaded(copy).messages.map((m) => m.content)).toEqual(
          ["first prompt", "second prompt"].flatMap((p) => [p, long(p)]),
        );
      } finally {
        fs.rmSync(copy, { force: true });
      }
    });
  });

  it("kill -9 in the middle of an answer: resume shows what had streamed, marked interrupted", async () => {
    // 25 words a second for 16 s.
    const words = Array.from({ length: 400 }, (_, i) => ({ text: `word${i} `, delayMs: 40 }));
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: words }] });
    const tui = open([]);
    await tui.waitFor("Ask anything");
    tui.type("tell me a long story");
    tui.press("Enter");
    await tui.waitFor("word0");
    // Killed once the session file holds the first second of text (what streams is saved as it comes).
    await waitUntil(
      () => sessionFiles(sb).some((f) => fs.readFileSync(f, "utf8").includes("word24 ")),
      15_000,
      "word24 saved",
    );
    process.kill(tui.appPid()!, "SIGKILL");
    await tui.waitFor("[exit 137]");

    const [file] = sessionFiles(sb);
    const s = loaded(file!);
    expect(s.cutOff).toBe(true);
    const cut = s.messages.at(-1)!;
    expect(cut).toMatchObject({ role: "assistant", interrupted: true });
    // At least the first second of text (25 words).
    expect(cut.content).toMatch(/^word0 word1 word2 (word\d+ ){22,}/);

    const resumed = open(["--resume", s.header.id], { width: 120, height: 40 });
    const screen = await resumed.waitFor("cut off when agent0 stopped");
    expect(screen).toContain("interrupted");
    expect(screen).toContain("word24");
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

/** Writes zeros until the file system refuses more. */
function fillUp(file: string): void {
  const fd = fs.openSync(file, "w");
  const block = Buffer.alloc(4096);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
  } finally {
    fs.closeSync(fd);
  }
  // tmpfs may still take a few bytes into a partly used page: take them too.
  const small = Buffer.alloc(1);
  const fd2 = fs.openSync(file, "a");
  try {
    for (;;) fs.writeSync(fd2, small);
  } catch {
    // full
  } finally {
    fs.closeSync(fd2);
  }
}
