// One writer per session: `<id>.lock` beside the session file names the process writing it
// (pid, host, start time). A lock whose process is gone is taken over; another live process's
// lock is respected (the caller forks instead of writing into the same file).
import fs from "node:fs";
import os from "node:os";

export interface LockOwner {
  pid: number;
  host: string;
  /** When the owning process started, ms since the epoch: tells a reused pid from the owner. */
  started: number;
}

export type LockResult = { ok: true; lock: SessionLock } | { ok: false; owner: LockOwner };

export function lockPathFor(sessionPath: string): string {
  return sessionPath.replace(/\.jsonl$/, "") + ".lock";
}

/** This process, as a lock names it. */
export function currentOwner(): LockOwner {
  return { pid: process.pid, host: os.hostname(), started: processStart(process.pid) ?? startedByUptime() };
}

/** Another process of this host, as its lock would name it (undefined where the system cannot tell). */
export function ownerOf(pid: number): LockOwner | undefined {
  const started = processStart(pid);
  return started === undefined ? undefined : { pid, host: os.hostname(), started };
}

export class SessionLock {
  private held = true;
  constructor(
    readonly path: string,
    readonly owner: LockOwner,
  ) {}

  /** Removes the lock file if it is still this process's (best effort: exit must not fail on it). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    try {
      const now = readOwner(this.path);
      if (now && now.pid === this.owner.pid && now.host === this.owner.host) fs.rmSync(this.path, { force: true });
    } catch {
      // gone already, or the folder is unreadable: nothing to release
    }
  }
}

/** Takes the lock of the session file at `sessionPath`, or says who holds it. */
export function acquireLock(sessionPath: string, owner: LockOwner = currentOwner()): LockResult {
  const file = lockPathFor(sessionPath);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(file, owner)) return { ok: true, lock: new SessionLock(file, owner) };
    const holder = readOwner(file);
    if (holder && isAlive(holder)) {
      if (holder.pid === owner.pid && holder.host === owner.host)
        return { ok: true, lock: new SessionLock(file, owner) };
      return { ok: false, owner: holder };
    }
    // The holder is gone (or the file is unreadable garbage): take it over. Moving it aside first
    // means two processes taking over at once cannot both remove a fresh lock.
    const aside = `${file}.stale-${process.pid}`;
    try {
      fs.renameSync(file, aside);
      const moved = readOwner(aside);
      if (moved && isAlive(moved)) fs.linkSync(aside, file); // a fresh lock was moved: put it back
      fs.rmSync(aside, { force: true });
    } catch {
      // someone else moved it first: try again
    }
  }
  const holder = readOwner(file);
  return holder ? { ok: false, owner: holder } : { ok: true, lock: new SessionLock(file, owner) };
}

/** Whether a live process holds the lock of this session (for `agent0 sessions`). */
export function lockHolder(sessionPath: string): LockOwner | undefined {
  const holder = readOwner(lockPathFor(sessionPath));
  return holder && isAlive(holder) ? holder : undefined;
}

/** Creates the lock with its content in one step (a link), so no one ever reads it half-written. */
function tryCreate(file: string, owner: LockOwner): boolean {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(owner) + "\n", { mode: 0o600 });
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<LockOwner>;
    if (typeof value.pid === "number" && typeof value.host === "string" && typeof value.started === "number") {
      return { pid: value.pid, host: value.host, started: value.started };
    }
  } catch {
    // missing or unreadable
  }
  return undefined;
}

/**
 * A lock of another host is taken as live: its processes cannot be seen from here. On this host,
 * the pid must exist and, where the system tells, have started when the lock says (pids are reused).
 */
export function isAlive(owner: LockOwner): boolean {
  if (owner.host !== os.hostname()) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const started = processStart(owner.pid);
  return started === undefined || Math.abs(started - owner.started) < 2000;
}

function startedByUptime(): number {
  return Math.round(Date.now() - process.uptime() * 1000);
}

// eslint-disable-next-line no-restricted-syntax -- a cache: the machine's boot time does not change while we run
let bootTime: number | undefined;

/** Linux: a process's start time from /proc (field 22 of stat, in clock ticks since boot). */
function processStart(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count from the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[19]);
    bootTime ??= Number(/^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"))?.[1]) * 1000;
    if (!Number.isFinite(ticks) || !Number.isFinite(bootTime)) return undefined;
    return Math.round(bootTime + (ticks * 1000) / 100); // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}
