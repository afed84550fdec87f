// One hook command, run as Claude Code runs it (docs.anthropic.com/en/docs/claude-code/hooks):
// `sh -c <command>` in the project folder with $CLAUDE_PROJECT_DIR set, the event's JSON on stdin,
// a time-out (seconds, default 60), then its exit code, stdout and stderr.
import { spawn } from "node:child_process";

export const DEFAULT_HOOK_TIMEOUT_S = 60;
/** Output kept per stream: a hook that floods must not fill the worker's memory. */
const MAX_OUTPUT = 256 * 1024;

export interface HookRun {
  /** null: it did not end (time-out, or could not start). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why it has no code. */
  failure?: string;
}

export function runHookCommand(
  command: string,
  input: unknown,
  opts: { cwd: string; timeoutS?: number; signal?: AbortSignal },
): Promise<HookRun> {
  const timeoutMs = (opts.timeoutS ?? DEFAULT_HOOK_TIMEOUT_S) * 1000;
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let failure: string | undefined;
    const child = spawn("sh", ["-c", command], {
      cwd: opts.cwd,
      // Its own process group, so a time-out ends what it started too.
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, CLAUDE_PROJECT_DIR: opts.cwd, AGENT0_PROJECT_DIR: opts.cwd },
    });
    const kill = (why: string) => {
      failure ??= why;
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => kill(`timed out after ${timeoutMs / 1000} s`), timeoutMs);
    const onAbort = () => kill("stopped");
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += d;
    });
    // A hook that does not read its input closes the pipe early: that is not an error.
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(input));
    child.on("error", (err) => {
      failure ??= `could not start: ${err.message}`;
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      resolve(failure ? { code: null, stdout, stderr, failure } : { code, stdout, stderr });
    });
  });
}
