import { type ToolContext, type ToolResult, defineTool } from "../types.js";
import { outputLimit } from "../output.js";
import { spawn, type StdioOptions } from "node:child_process";
import type { Duplex } from "node:stream";
import fs from "node:fs";
import * as z from "zod";
import { deniedMessage } from "../files/checks.js";
import { HeadTailBuffer } from "../head-tail.js";
import { scrubEnv } from "../../safety/secrets.js";
import { sandboxArgv } from "./sandbox.js";
import { CONTAIN_INFO_FD, containedArgv } from "./contain.js";
import { safeGitConfigEnv } from "../../safety/git-safety.js";
import { maskSecretFileOutput } from "../../safety/secret-files.js";
import { isReadOnlyCommand } from "./safety.js";

export const SHELL_DEFAULT_TIMEOUT_MS = 120_000;
export const SHELL_MAX_TIMEOUT_MS = 600_000;
/** SIGTERM first; whatever still lives this much later gets SIGKILL. */
export const KILL_GRACE_MS = 500;
/** After bash exits, a background child may keep the pipes open; stop reading after this. */
const DRAIN_MS = 200;

const schema = () =>
  z.object({
    command: z.string().describe("The bash command line to run in the project folder."),
    unsandboxed: z
      .boolean()
      .optional()
      .describe(
        "Only when the sandbox is on: run outside it, for a command that needs the network or must write outside the project. The user is asked.",
      ),
    run_in_background: z
      .boolean()
      .optional()
      .describe(
        "Start the command and return at once with its id, for servers, watchers and long builds. Read its output later with shell_output; stop it with kill_shell.",
      ),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        `Kill the command after this many milliseconds. Default ${SHELL_DEFAULT_TIMEOUT_MS}, at most ${SHELL_MAX_TIMEOUT_MS}.`,
      ),
  });

export interface ShellOutcome {
  output: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  interrupted: boolean;
  spawnError?: string;
  pid?: number;
}

export interface ShellOptions {
  cwd: string;
  /** `--add-dir` folders: writable in the sandbox, as the project is. */
  addDirs?: readonly string[] | undefined;
  /** The child's environment (secret variables already removed); default: scrubbed process.env. */
  env?: NodeJS.ProcessEnv;
  /** Run under bubblewrap (tools/shell/sandbox.ts). */
  sandbox?: boolean;
  signal: AbortSignal;
  /** Infinity: no time-out (a background command). */
  timeoutMs: number;
  outputLimit: number;
  /** Every chunk of output as it arrives (a background command's reader). */
  onOutput?(chunk: string): void;
  /**
   * Ctrl+B: when `signal` fires, the command goes on without its time-out, `opts.signal` no longer
   * stops it (`kill` does), and `onDetach` gets the output so far; the promise resolves at its end.
   */
  detach?: { signal: AbortSignal; kill: AbortSignal; onDetach(outputSoFar: string): void };
}

export const runShellTool = defineTool({
  name: "run_shell_command",
  description:
    "Run a bash command in the project folder (tests, builds, git, package scripts). stdout and stderr " +
    "come back together with the exit code. No input can be typed: use non-interactive flags. Whatever the " +
    "command starts in the background ends when it ends.",
  brief: "Run a bash command in the project folder: ls, find, tests, builds, git. Non-interactive.",
  schema,
  readOnly: false,
  concurrentSafe: false,
  label: (args) => `run ${oneLine(args.command)}`,
  async run(args, ctx): Promise<ToolResult> {
    const approval = await ctx.approve({ tool: "run_shell_command", kind: "shell", args, preview: args.command });
    if (!approval.ok) return { content: deniedMessage(approval.reason), isError: true };
    const where = {
      cwd: ctx.cwd,
      addDirs: ctx.config.addDirs,
      env: scrubEnv(process.env, ctx.config.shellEnvAllow),
      sandbox: ctx.config.sandbox === "workspace-write" && args.unsandboxed !== true,
      outputLimit: outputLimit(ctx.config),
    };
    if (args.run_in_background) {
      const job = ctx.memory.jobs.start(args.command, where);
      return {
        content: `Started in the background as ${job.id}. Read its output with shell_output({"id": "${job.id}"}); stop it with kill_shell.`,
        summary: `background ${job.id}`,
      };
    }
    const timeoutMs = Math.min(args.timeout_ms ?? SHELL_DEFAULT_TIMEOUT_MS, SHELL_MAX_TIMEOUT_MS);
    // A command that reads a secret file (cat config/.env) shows its keys, not its values.
    const shown = (text: string) => maskSecretFileOutput(args.command, ctx.cwd, text);
    // The editor's terminal, when it offers one — not under the sandbox, whose filter reaches
    // bubblewrap through a descriptor no terminal passes: sandboxed commands stay agent0's own.
    if (ctx.terminal && !where.sandbox) {
      const outcome = await ctx.terminal.run({
        ...bashArgv(args.command),
        cwd: ctx.cwd,
        env: await commandEnv(args.command, ctx.cwd),
        outputLimit: where.outputLimit,
        timeoutMs,
        signal: ctx.signal,
        callId: ctx.callId,
      });
      return describeOutcome({ ...outcome, output: shown(outcome.output) }, timeoutMs);
    }
    return runInFront(args.command, where, timeoutMs, ctx, shown);
  },
});

/**
 * The command in front, the run waiting for it; Ctrl+B (jobs.backgroundForeground) detaches it
 * into a background job, and the model gets the output so far.
 */
async function runInFront(
  command: string,
  where: Omit<ShellOptions, "signal" | "timeoutMs">,
  timeoutMs: number,
  ctx: ToolContext,
  shown: (text: string) => string,
): Promise<ToolResult> {
  const jobs = ctx.memory.jobs;
  const toBackground = new AbortController();
  const kill = new AbortController();
  // Where output goes once the command became a job (before that, only into the tool's result).
  const output: { sink?: (chunk: string) => void } = {};
  let detached!: (soFar: string) => void;
  const onDetach = new Promise<string>((resolve) => (detached = resolve));
  jobs.setForeground(() => toBackground.abort());
  const running = runCommand(command, {
    ...where,
    signal: ctx.signal,
    timeoutMs,
    onOutput: (chunk) => output.sink?.(chunk),
    detach: { signal: toBackground.signal, kill: kill.signal, onDetach: detached },
  });
  const first = await Promise.race([running.then((outcome) => ({ outcome })), onDetach.then((soFar) => ({ soFar }))]);
  jobs.setForeground(undefined);
  if ("outcome" in first) return describeOutcome({ ...first.outcome, output: shown(first.outcome.output) }, timeoutMs);
  // The output so far goes to the model in this result; the job keeps only what follows.
  const job = jobs.adopt(command, running, kill);
  output.sink = job.take;
  const body = first.soFar === "" ? "(no output)" : shown(first.soFar);
  return {
    content: `The user sent the command to the background as ${job.id}; it goes on running. Read its output with shell_output({"id": "${job.id}"}); stop it with kill_shell.\nOutput so far:\n${body}`,
    summary: `sent to the background as ${job.id}`,
  };
}

/** The UI line holds one short line; a multi-line script shows its first line. */
function oneLine(command: string): string {
  const lines = command.trim().split("\n");
  const first = lines[0]!.length > 80 ? `${lines[0]!.slice(0, 79)}…` : lines[0]!;
  return lines.length > 1 && !first.endsWith("…") ? `${first} …` : first;
}

function describeOutcome(o: Omit<ShellOutcome, "signal"> & { signal: string | null }, timeoutMs: number): ToolResult {
  const body = o.output === "" ? "(no output)" : o.output;
  if (o.spawnError) return { content: `Error: could not start the command: ${o.spawnError}`, isError: true };
  if (o.interrupted) {
    return {
      content: `Error: interrupted by the user; the command and its children were killed.\n${body}`,
      isError: true,
      summary: "interrupted",
    };
  }
  if (o.timedOut) {
    const secs = `${Number((timeoutMs / 1000).toFixed(1))} s`;
    return {
      content: `Error: timed out after ${secs}; the command and its children were killed.\n${body}`,
      isError: true,
      summary: `timed out after ${secs}`,
    };
  }
  const lines = o.output === "" ? 0 : o.output.replace(/\n$/, "").split("\n").length;
  const status = o.exitCode === null ? `killed by signal ${o.signal}` : `exit code ${o.exitCode}`;
  const short = o.exitCode === null ? `signal ${o.signal}` : `exit ${o.exitCode}`;
  return {
    content: `${status}\n${body}`,
    isError: o.exitCode !== 0,
    summary: `${short} · ${lines === 1 ? "1 line" : `${lines} lines`}`,
  };
}

/**
 * Runs `bash -c command` in its own process group with stdin closed; stdout and stderr are
 * kept in arrival order. On abort or timeout the whole group is killed and the promise
 * resolves promptly, whatever the children do with their pipes. Outside the sandbox the command
 * runs in a pid namespace of its own (contain.ts) where the system allows one, else as it is.
 */
export async function runCommand(command: string, opts: ShellOptions): Promise<ShellOutcome> {
  const env = { ...(opts.env ?? scrubEnv(process.env)), ...(await commandEnv(command, opts.cwd)) };
  const { file, args } = bashArgv(command);
  const argv = [file, ...args];
  // The sandbox has its own pid namespace, and never falls back to running unsandboxed.
  if (opts.sandbox) return runArgv(sandboxArgv(argv, opts.cwd, env, opts.addDirs), env, opts, false);
  const contained = await runArgv(containedArgv(argv), env, opts, true);
  return contained === "no-namespace" ? runArgv({ file: argv[0]!, args: argv.slice(1) }, env, opts, false) : contained;
}

/**
 * One pipe for both streams keeps their true order (two pipes are read in whatever order the
 * event loop sees them). bash runs the first line before parsing the rest.
 */
function bashArgv(command: string): { file: string; args: string[] } {
  return { file: "bash", args: ["-c", `exec 2>&1\n${command}`] };
}

/** What a command's environment gets on top: no pager, no password prompt, and for a read-only git command, none of the repository's programs. */
async function commandEnv(command: string, cwd: string): Promise<Record<string, string>> {
  const env: Record<string, string> = { PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" };
  // A read-only git command runs none of the repository's programs: hooks, fsmonitor, filters, drivers.
  if (/^\s*git\s/.test(command) && isReadOnlyCommand(command)) Object.assign(env, await safeGitConfigEnv(cwd));
  return env;
}

/** What to start: a file and its arguments, and the bytes bwrap reads as its seccomp filter (fd 3). */
type Argv = { file: string; args: string[]; seccomp?: Buffer };

function runArgv(cmd: Argv, env: NodeJS.ProcessEnv, opts: ShellOptions, contained: false): Promise<ShellOutcome>;
function runArgv(
  cmd: Argv,
  env: NodeJS.ProcessEnv,
  opts: ShellOptions,
  contained: true,
): Promise<ShellOutcome | "no-namespace">;
/** Runs one argv; with `contained`, answers "no-namespace" when bwrap could not start the command at all. */
function runArgv(
  cmd: Argv,
  env: NodeJS.ProcessEnv,
  opts: ShellOptions,
  contained: boolean,
): Promise<ShellOutcome | "no-namespace"> {
  return new Promise((resolve) => {
    const outcome: ShellOutcome = { output: "", exitCode: null, signal: null, timedOut: false, interrupted: false };
    if (opts.signal.aborted) {
      resolve({ ...outcome, interrupted: true });
      return;
    }
    const buffer = new HeadTailBuffer(opts.outputLimit);
    const fd3 = contained || cmd.seccomp !== undefined;
    const stdio: StdioOptions = fd3 ? ["ignore", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"];
    const child = spawn(cmd.file, cmd.args, { cwd: opts.cwd, detached: true, stdio, env });
    const extra = child.stdio[CONTAIN_INFO_FD] as Duplex | null | undefined;
    extra?.on("error", () => undefined);
    if (cmd.seccomp) extra?.end(cmd.seccomp);
    outcome.pid = child.pid;
    // bwrap writes the started command's pid on its info fd; silence there means no namespace.
    let started = !contained;
    if (contained) extra?.on("data", () => (started = true));
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const finish = (): void => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      opts.signal.removeEventListener("abort", onAbort);
      opts.detach?.signal.removeEventListener("abort", onDetach);
      opts.detach?.kill.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      extra?.destroy();
      if (!started && !outcome.interrupted && !outcome.timedOut) resolve("no-namespace");
      else resolve({ ...outcome, output: buffer.text() });
    };
    const stop = (why: "timedOut" | "interrupted"): void => {
      if (settled || outcome.timedOut || outcome.interrupted) return;
      outcome[why] = true;
      if (child.pid !== undefined) killGroup(child.pid);
      // Resolve even if bash never reports its exit (e.g. stuck in the kernel).
      timers.push(setTimeout(finish, KILL_GRACE_MS + 500));
    };
    const onAbort = (): void => stop("interrupted");
    const onDetach = (): void => {
      if (settled || killed() || !opts.detach) return;
      for (const t of timers) clearTimeout(t);
      timers.length = 0;
      opts.signal.removeEventListener("abort", onAbort);
      opts.detach.kill.addEventListener("abort", onAbort, { once: true });
      opts.detach.onDetach(buffer.text());
    };
    const killed = (): boolean => outcome.timedOut || outcome.interrupted;
    // When we killed the command, report back only once its whole group is gone.
    const finishWhenGroupGone = (): void => {
      if (child.pid === undefined || !groupAlive(child.pid)) finish();
      else timers.push(setTimeout(finishWhenGroupGone, 20));
    };

    child.stdout?.setEncoding("utf8");
    child.stderr?.setEncoding("utf8");
    const take = (chunk: string): void => {
      buffer.push(chunk);
      opts.onOutput?.(chunk);
    };
    child.stdout?.on("data", take);
    child.stderr?.on("data", take);
    child.on("error", (err) => {
      if (started) outcome.spawnError = err.message;
      finish();
    });
    child.on("exit", (code, signal) => {
      outcome.exitCode = code;
      outcome.signal = signal;
      if (killed()) finishWhenGroupGone();
      else timers.push(setTimeout(finish, DRAIN_MS));
    });
    child.on("close", () => (killed() ? finishWhenGroupGone() : finish()));
    opts.signal.addEventListener("abort", onAbort, { once: true });
    opts.detach?.signal.addEventListener("abort", onDetach, { once: true });
    if (Number.isFinite(opts.timeoutMs)) timers.push(setTimeout(() => stop("timedOut"), opts.timeoutMs));
  });
}

/**
 * Whether any process of the group still runs. Zombies do not count: where nothing reaps
 * orphans (some containers), killed children stay zombies and kill(-pgid, 0) would still succeed.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let pids: string[];
  try {
    pids = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return true; // no /proc: trust kill(-pgid, 0)
  }
  return pids.some((pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return fields[2] === String(pgid) && fields[0] !== "Z";
    } catch {
      return false;
    }
  });
}

/** SIGTERM to the whole group, then SIGKILL to whatever is left after KILL_GRACE_MS. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return; // the group is already gone
  }
  const followUp = setTimeout(() => {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // all exited after SIGTERM
    }
  }, KILL_GRACE_MS);
  followUp.unref();
}
