// Runs Claude Code's `statusLine.command` (code.claude.com/docs/en/statusline: "updates run at most
// every 300 ms", "the first line of stdout becomes the status line text"): off the key path, one
// at a time, the newest state last, each run with a time-out. Output is read, never drawn: the
// view sanitises it.
import { spawn } from "node:child_process";
import type { StatusLineInput } from "../../protocol/status-line.js";
import type { Msg } from "../msg.js";

export const STATUS_MIN_GAP_MS = 300;
export const STATUS_TIMEOUT_MS = 5000;
/** More is no status line: the rest is not read. */
const MAX_OUTPUT = 16 * 1024;

export interface StatusRequest {
  command: string;
  cwd: string;
  input: StatusLineInput;
}

export interface StatusLineRunner {
  request(req: StatusRequest): void;
}

export function createStatusLineRunner(
  later: (msg: Msg) => void,
  opts: { now?: () => number; gapMs?: number; timeoutMs?: number } = {},
): StatusLineRunner {
  const now = opts.now ?? Date.now;
  const gap = opts.gapMs ?? STATUS_MIN_GAP_MS;
  let pending: StatusRequest | undefined;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let lastStart = -Infinity;

  const pump = (): void => {
    if (running || timer || !pending) return;
    const wait = lastStart + gap - now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        pump();
      }, wait);
      // A status line never keeps a quitting app alive.
      timer.unref();
      return;
    }
    const req = pending;
    pending = undefined;
    running = true;
    lastStart = now();
    runStatusCommand(req, opts.timeoutMs ?? STATUS_TIMEOUT_MS).then(
      (r) => {
        running = false;
        later(r.ok ? { type: "status-line-text", text: r.text } : { type: "status-line-failed", error: r.error });
        pump();
      },
      (err: Error) => {
        running = false;
        later({ type: "status-line-failed", error: err.message });
        pump();
      },
    );
  };
  return {
    request(req) {
      pending = req;
      pump();
    },
  };
}

/** One run: the input as JSON on stdin, the first line of stdout back; non-zero exit or time-out fails. */
export function runStatusCommand(
  req: StatusRequest,
  timeoutMs: number,
): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    // Its own process group: a time-out ends what the command started too (a `sleep` holding stdout).
    const child = spawn("/bin/sh", ["-c", req.command], {
      cwd: req.cwd,
      stdio: ["pipe", "pipe", "ignore"],
      detached: true,
    });
    let out = "";
    let timedOut = false;
    const killGroup = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    };
    // agent0 quitting meanwhile ends it too: a slow status command outlives nothing.
    process.on("exit", killGroup);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (out.length < MAX_OUTPUT) out += chunk;
    });
    // A command that does not read its stdin closes the pipe: that is no failure.
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(req.input));
    child.on("error", (err) => {
      clearTimeout(timer);
      process.off("exit", killGroup);
      resolve({ ok: false, error: err.message });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      process.off("exit", killGroup);
      if (timedOut) return resolve({ ok: false, error: `no answer within ${timeoutMs / 1000} s` });
      if (code !== 0) return resolve({ ok: false, error: signal ? `stopped by ${signal}` : `exit code ${code}` });
      resolve({ ok: true, text: out.split(/\r?\n/, 1)[0] ?? "" });
    });
  });
}
