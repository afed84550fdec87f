// Background shell commands of one agent session (Claude Code's `run_in_background`, BashOutput and
// KillShell): started by run_shell_command, or moved there by Ctrl+B while they run in front. The
// session owns the registry and hands it to the tools in SessionMemory. Each job is its own process
// group carrying the app's process tag (process-tag.ts), so it dies with agent0 like any command.
import type { BackgroundJobView } from "../../protocol/jobs.js";
import { joinTruncated } from "../output.js";
import { runCommand } from "./shell.js";
import type { BackgroundJobs, JobOutcome, JobRead } from "./job-types.js";

export type { BackgroundJobs, JobRead };

/** Output not yet read is kept up to this many characters; older unread output is dropped (and counted). */
const UNREAD_LIMIT = 1_000_000;

interface Job {
  view: BackgroundJobView;
  /** Aborting it kills the command's whole process group; `ended` resolves once it is gone. */
  kill: AbortController;
  ended: Promise<void>;
  /** Output since the last read. */
  unread: string;
  /** Characters dropped from `unread` because nobody read them in time. */
  dropped: number;
  /** A read has reported the job's end to the model. */
  endRead: boolean;
  /** Waits (shell_output's) to wake at the next output or the exit. */
  waiters: Set<() => void>;
}

const hasNews = (job: Job) => job.unread !== "" || job.dropped > 0 || (job.view.state !== "running" && !job.endRead);

/** `onChange` hears every start, exit and kill (the status line counts the running jobs). */
export function createBackgroundJobs(onChange: (jobs: BackgroundJobView[]) => void = () => {}): BackgroundJobs {
  const jobs = new Map<string, Job>();
  let next = 1;
  let foreground: (() => void) | undefined;
  const changed = () => onChange(list());

  function list(): BackgroundJobView[] {
    return [...jobs.values()].map((j) => ({ ...j.view }));
  }

  function wake(job: Job): void {
    for (const w of [...job.waiters]) w();
  }

  function take(job: Job, chunk: string): void {
    job.unread += chunk;
    wake(job);
    if (job.unread.length > UNREAD_LIMIT) {
      const cut = job.unread.length - UNREAD_LIMIT;
      job.dropped += cut;
      job.unread = job.unread.slice(cut);
    }
  }

  function track(command: string, kill: AbortController, run: (job: Job) => Promise<JobOutcome>): Job {
    const id = `bash_${next++}`;
    const job: Job = {
      view: { id, command, state: "running", exitCode: null, signal: null },
      kill,
      ended: Promise.resolve(),
      unread: "",
      dropped: 0,
      endRead: false,
      waiters: new Set(),
    };
    jobs.set(id, job);
    job.ended = run(job).then(
      (o) => {
        if (o.spawnError) take(job, `Error: could not start the command: ${o.spawnError}\n`);
        job.view.state = job.view.killed || o.interrupted ? "killed" : "exited";
        job.view.exitCode = o.exitCode;
        job.view.signal = o.signal;
        wake(job);
        changed();
      },
      (err: Error) => {
        take(job, `Error: ${err.message}\n`);
        job.view.state = "exited";
        wake(job);
        changed();
      },
    );
    changed();
    return job;
  }

  return {
    start(command, where) {
      const kill = new AbortController();
      const job = track(command, kill, (j) =>
        runCommand(command, {
          ...where,
          signal: kill.signal,
          timeoutMs: Infinity,
          onOutput: (chunk) => take(j, chunk),
        }),
      );
      return { ...job.view };
    },
    adopt(command, running, kill) {
      const job = track(command, kill, () => running);
      return { ...job.view, take: (chunk: string) => take(job, chunk) };
    },
    read(id, limit) {
      const job = jobs.get(id);
      if (!job) return undefined;
      let text = job.unread;
      job.unread = "";
      if (job.dropped > 0) text = `[${job.dropped} earlier characters were not read in time and were dropped]\n${text}`;
      job.dropped = 0;
      if (job.view.state !== "running") job.endRead = true;
      if (text.length > limit) {
        const half = Math.floor(limit / 2);
        text = joinTruncated(text.slice(0, half), text.length - 2 * half, text.slice(-half));
      }
      return { job: { ...job.view }, output: text };
    },
    waitForNews(id, ms, signal) {
      const job = jobs.get(id);
      if (!job || hasNews(job) || ms <= 0 || signal.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          job.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener("abort", done, { once: true });
        job.waiters.add(done);
      });
    },
    unsettled(id) {
      const job = jobs.get(id);
      return job !== undefined && (job.view.state === "running" || hasNews(job));
    },
    async kill(id) {
      const job = jobs.get(id);
      if (!job) return undefined;
      if (job.view.state === "running") {
        job.view.killed = true;
        job.kill.abort();
        await job.ended;
      }
      return { ...job.view };
    },
    list,
    setForeground(toBackground) {
      foreground = toBackground;
    },
    backgroundForeground() {
      if (!foreground) return false;
      foreground();
      return true;
    },
    killAll() {
      for (const job of jobs.values()) {
        if (job.view.state !== "running") continue;
        job.view.killed = true;
        job.kill.abort();
      }
    },
  };
}
