// Helpers for benchmarks that drive the built app in a real terminal (tmux).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { removeSandbox } from "../.bench-build/fakes/home-processes.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = path.join(ROOT, "bin", "agent0.js");
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * One cache folder for every launch of the bench, as a user's machine has: a one-shot runs from
 * the code cache the first launch wrote (src/cli/code-cache.ts). Removed when the bench ends.
 */
const CACHE = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent0-bench-cache-")));
process.on("exit", () => fs.rmSync(CACHE, { recursive: true, force: true }));

/** Sandboxes not removed yet: removed when the bench exits, however it ends. */
const unremoved = new Map();
process.on("exit", () => {
  for (const [base, home] of unremoved) removeSandbox(base, home);
});

export function sandbox() {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent0-bench-")));
  const home = path.join(base, "home");
  unremoved.set(base, home);
  const project = path.join(base, "project");
  fs.mkdirSync(project, { recursive: true });
  fs.mkdirSync(path.join(home, ".config", "agent0"), { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: CACHE,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    AGENT0_BENCH_FILE: path.join(base, "bench.jsonl"),
  };
  return {
    base,
    home,
    project,
    env,
    benchFile: env.AGENT0_BENCH_FILE,
    // The app may still be running (a terminal killed under it exits on its own time) and would
    // write its log into the removed folder: its processes are stopped first.
    cleanup: () => {
      removeSandbox(base, home);
      unremoved.delete(base);
    },
  };
}

const q = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
let seq = 0;

export class Tui {
  /** `bin`: the script node runs (default agent0's bin); the floors run their own. */
  constructor(sb, args, { width = 120, height = 40, bin = BIN } = {}) {
    this.socket = `agent0-bench-${process.pid}-${++seq}`;
    const envs = Object.entries(sb.env)
      .map(([k, v]) => `${k}=${q(v)}`)
      .join(" ");
    this.tmux(
      "new-session",
      "-d",
      "-s",
      "b",
      "-x",
      String(width),
      "-y",
      String(height),
      `cd ${q(sb.project)} && env -i ${envs} node ${q(bin)} ${args.map(q).join(" ")}; sleep 600`,
    );
    this.sb = sb;
  }
  tmux(...args) {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }
  keys(...k) {
    this.tmux("send-keys", "-t", "b", ...k);
  }
  type(t) {
    this.tmux("send-keys", "-t", "b", "-l", t);
  }
  pid() {
    const shell = this.tmux("list-panes", "-t", "b", "-F", "#{pane_pid}").trim();
    const out = spawnSync("pgrep", ["-P", shell, "node"], { encoding: "utf8" }).stdout.trim();
    return out ? Number(out.split("\n")[0]) : undefined;
  }
  kill() {
    try {
      this.tmux("kill-server");
    } catch {
      // the server is gone already
    }
  }
}

export function marks(sb) {
  if (!fs.existsSync(sb.benchFile)) return [];
  return fs
    .readFileSync(sb.benchFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

export async function waitMark(sb, event, timeoutMs = 30_000, after = 0) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const m = marks(sb).filter((x) => x.event === event);
    if (m.length > after) return m[after];
    await sleep(10);
  }
  throw new Error(`no '${event}' mark within ${timeoutMs} ms`);
}

export function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
  return kb / 1024;
}

/** CPU time (user + system, all threads) a live process has used so far, in ms. */
export function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The highest resident memory a live process has had, in MB. */
export function peakRssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
}

/** Runs agent0 (or `bin`) to its exit: wall time, and CPU time and peak memory from time(1). */
export function runHeadless(sb, args, { bin = BIN } = {}) {
  const timing = path.join(sb.base, `time-${++seq}.txt`);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn("/usr/bin/time", ["-o", timing, "-f", "%U %S %M", "node", bin, ...args], {
      cwd: sb.project,
      env: sb.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => {
      const ms = performance.now() - started;
      const [user, sys, maxKb] = fs.readFileSync(timing, "utf8").trim().split("\n").at(-1).split(" ").map(Number);
      resolve({ code, out, err, ms, cpuMs: (user + sys) * 1000, peakMb: maxKb / 1024 });
    });
  });
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}
