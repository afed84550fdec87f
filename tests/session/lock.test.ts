import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { formatSessionList, listSessions } from "../../src/session/list.js";
import { loadSession } from "../../src/session/load.js";
import { acquireLock, lockHolder, lockPathFor, ownerOf, type LockOwner } from "../../src/session/lock.js";
import { SessionRecorder } from "../../src/session/recorder.js";
import { resumeSession } from "../../src/session/resume.js";

let dir: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-lock-"));
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

const fields = () => ({ cwd: "/home/ada/project", provider: "ollama", model: "qwen3:8b" });
const user = (content: string): ConversationMessage => ({ role: "user", content });
const answer = (content: string): ConversationMessage => ({ role: "assistant", content });

/** Another live process on this host, as the owner of a lock. */
function otherProcess(): LockOwner {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  children.push(child);
  const owner = ownerOf(child.pid!);
  return owner ?? { pid: child.pid!, host: os.hostname(), started: Date.now() };
}

/** A pid that is gone. */
function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout,
  );
}

function saved(messages: ConversationMessage[]): SessionRecorder {
  const r = new SessionRecorder({ dir, fields, env: {} });
  for (const m of messages) r.append(m);
  r.close();
  return r;
}

function writeLock(sessionPath: string, owner: LockOwner): void {
  fs.writeFileSync(lockPathFor(sessionPath), JSON.stringify(owner));
}

describe("one writer per session", () => {
  it("takes a free lock, refuses one a live process holds, and takes over one whose process is gone", () => {
    const file = path.join(dir, "s.jsonl");
    const other = otherProcess();
    writeLock(file, other);
    expect(acquireLock(file)).toEqual({ ok: false, owner: other });

    writeLock(file, { pid: deadPid(), host: os.hostname(), started: Date.now() });
    const taken = acquireLock(file);
    expect(taken.ok).toBe(true);
    expect(JSON.parse(fs.readFileSync(lockPathFor(file), "utf8"))).toMatchObject({ pid: process.pid });
    if (taken.ok) taken.lock.release();
    expect(fs.existsSync(lockPathFor(file))).toBe(false);
  });

  it("a live pid that started later than the lock says is a reused pid: the lock is stale", () => {
    const file = path.join(dir, "s.jsonl");
    const other = otherProcess();
    if (ownerOf(other.pid) === undefined) return; // no /proc here: start times cannot be told
    writeLock(file, { ...other, started: other.started - 3_600_000 });
    expect(acquireLock(file).ok).toBe(true);
  });

  it("resuming a session another agent0 has open forks it: its own file, the shared history, the parent untouched", () => {
    const parent = saved([user("shared question"), answer("shared answer")]);
    writeLock(parent.path, otherProcess());
    const before = fs.readFileSync(parent.path);

    const resumed = resumeSession(dir, parent.id.slice(0, 8), {});
    if (!resumed.ok) throw new Error(resumed.error);
    const forkId = resumed.session.id;
    expect(forkId).not.toBe(parent.id);
    expect(resumed.notices[0]).toMatch(
      new RegExp(
        `^Session ${parent.id.slice(0, 8)} is open in another agent0 \\(pid \\d+\\); continuing as new session ${forkId.slice(0, 8)}\\.$`,
      ),
    );
    expect(resumed.session.conversation).toEqual([user("shared question"), answer("shared answer")]);
    const fork = new SessionRecorder({ dir, fields, env: {} });
    fork.adopt(resumed.session);
    fork.append(user("B's question"));
    fork.append(answer("B's answer"));

    // Meanwhile the parent goes on: the fork's history does not change with it.
    fs.appendFileSync(
      parent.path,
      JSON.stringify({ type: "message", at: "t", message: user("A's later question") }) + "\n",
    );
    const forkFile = loadSession(fork.path);
    if (!forkFile.ok) throw new Error(forkFile.error);
    expect(forkFile.header.parent).toEqual({ id: parent.id, bytes: before.length, messages: 2 });
    expect(forkFile.messages.map((m) => m.content)).toEqual([
      "shared question",
      "shared answer",
      "B's question",
      "B's answer",
    ]);
    // The parent holds only its own turns.
    const parentFile = loadSession(parent.path);
    expect(parentFile.ok && parentFile.messages.map((m) => m.content)).toEqual([
      "shared question",
      "shared answer",
      "A's later question",
    ]);

    // agent0 sessions: the fork under its parent; the open ones marked.
    expect(lockHolder(fork.path)?.pid).toBe(process.pid);
    const table = formatSessionList(listSessions(dir).sessions, Date.now()).split("\n");
    expect(table[0]).toMatch(/^ID\s+UPDATED\s+FOLDER\s+TITLE\s+MESSAGES\s+NOTE$/);
    const parentRow = table.findIndex((l) => l.startsWith(parent.id));
    expect(table[parentRow]).toMatch(/open now \(pid \d+\)$/);
    expect(table[parentRow + 1]).toMatch(new RegExp(`^└ ${forkId}\\s.*\\s4\\s+open now \\(pid ${process.pid}\\)$`));
    fork.close();
    expect(lockHolder(fork.path)).toBeUndefined();
  });

  it("a fork whose parent is gone loads its own messages and says why", () => {
    const parent = saved([user("q"), answer("a")]);
    writeLock(parent.path, otherProcess());
    const resumed = resumeSession(dir, parent.id, {});
    if (!resumed.ok) throw new Error(resumed.error);
    const fork = new SessionRecorder({ dir, fields, env: {} });
    fork.adopt(resumed.session);
    fork.append(user("mine"));
    fork.close();
    fs.rmSync(parent.path);
    const again = resumeSession(dir, fork.id, {});
    if (!again.ok) throw new Error(again.error);
    expect(again.session.conversation).toEqual([user("mine")]);
    expect(again.notices.some((n) => n.includes(`its parent session ${parent.id} is unreadable`))).toBe(true);
    again.session.lock?.release();
    again.session.writer?.close();
  });

  it("agent0 sessions flags a damaged file", () => {
    const r = saved([user("q"), answer("a")]);
    fs.appendFileSync(r.path, "not json\n");
    const [summary] = listSessions(dir).sessions;
    expect(summary).toMatchObject({ id: r.id, damaged: 1 });
    expect(formatSessionList([summary!], Date.now())).toMatch(/damaged: 1 unreadable line$/m);
  });
});
