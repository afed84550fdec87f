// Processes end with the app. Every command agent0 starts inherits AGENT0_PROCESS_TAG (one value
// per app instance), and children keep it through `&`, nohup and setsid, which leave the process
// group. So at quit, SIGHUP or SIGTERM, every process carrying the tag is found in /proc and
// killed. A child can shed the tag by clearing its environment (`env -i`): contain.ts's pid
// namespace is what holds those; the tag is the fallback where no namespace can be made.
import { randomId } from "../../session/random-id.js";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import fs from "node:fs";

export const PROCESS_TAG_VAR = "AGENT0_PROCESS_TAG";

/** Gives this app instance its tag (inherited by the worker and every child); returns it. */
export function tagThisApp(env: NodeJS.ProcessEnv = process.env): string {
  env[PROCESS_TAG_VAR] ??= randomId();
  return env[PROCESS_TAG_VAR];
}

/**
 * Whether this thread has started a child process since the call: node reports each spawn, exec
 * and fork on its "child_process" channel (not spawnSync's, which is waited for). Only a child
 * and its descendants can carry the tag, so before the first there is nothing to look for in
 * /proc (a scan reads every process's stat: ~2.5 ms for 66 processes, more on a desktop).
 */
export function watchChildStarts(): () => boolean {
  let started = false;
  const onStart = () => {
    started = true;
    unsubscribe("child_process", onStart);
  };
  subscribe("child_process", onStart);
  return () => started;
}

/** When a process started (clock ticks since boot), from /proc/<pid>/stat; undefined when gone. */
function startTime(pid: string): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  } catch {
    return undefined;
  }
}

/** Pids (other than ours) whose environment carries `tag`. */
export function taggedPids(tag: string): number[] {
  const needle = Buffer.from(`${PROCESS_TAG_VAR}=${tag}\0`);
  let names: string[];
  try {
    names = fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n));
  } catch {
    return []; // no /proc: process groups alone
  }
  // Only processes started after this app can carry its tag; reading an environment is slow.
  const since = startTime("self") ?? 0;
  const pids: number[] = [];
  for (const name of names) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    if ((startTime(name) ?? -1) < since) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/environ`).includes(needle)) pids.push(pid);
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

/** SIGTERM to every tagged process, then SIGKILL to those still there a moment later. Synchronous. */
export function killTagged(tag: string | undefined = process.env[PROCESS_TAG_VAR], graceMs = 150): number {
  if (!tag) return 0;
  const pids = taggedPids(tag);
  for (const pid of pids) signal(pid, "SIGTERM");
  if (pids.length === 0) return 0;
  // A signal handler may be exiting the app: wait without the event loop.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, graceMs);
  for (const pid of taggedPids(tag)) signal(pid, "SIGKILL");
  return pids.length;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}
