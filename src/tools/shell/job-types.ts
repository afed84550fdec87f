// The shape of a session's background-command registry (jobs.ts builds it), apart from the shell's
// code, so that SessionMemory can name it without importing the shell.
import type { BackgroundJobView } from "../../protocol/jobs.js";

/** Where a background command runs (the shell tool's options without signal and time-out). */
export interface Where {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  sandbox?: boolean;
  outputLimit: number;
}

/** How a command ended, as runCommand reports it. */
export interface JobOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  interrupted: boolean;
  spawnError?: string;
}

export interface JobRead {
  job: BackgroundJobView;
  /** The new output since the last read, cut to `limit` (head and tail kept). */
  output: string;
}

export interface BackgroundJobs {
  /** Starts `command` in the background (no time-out); returns its view (id). */
  start(command: string, where: Where): BackgroundJobView;
  /**
   * Takes over a command that ran in front (Ctrl+B): `running` resolves at its end, `kill` stops it.
   * `take` is where its further output goes.
   */
  adopt(
    command: string,
    running: Promise<JobOutcome>,
    kill: AbortController,
  ): BackgroundJobView & { take(chunk: string): void };
  /** The new output and state of a job, or undefined for an unknown id. */
  read(id: string, limit: number): JobRead | undefined;
  /**
   * Resolves once the job has news (output not yet read, or an exit not yet reported), after `ms`,
   * or when `signal` aborts — whichever comes first. At once for an unknown id.
   */
  waitForNews(id: string, ms: number, signal: AbortSignal): Promise<void>;
  /** Whether a read would tell the model something: the job still runs, or holds unread output or an unreported exit. */
  unsettled(id: string): boolean;
  /** Stops a job's whole process group; resolves once it is gone (undefined: no such job). */
  kill(id: string): Promise<BackgroundJobView | undefined>;
  list(): BackgroundJobView[];
  /** The command running in front registers how to send it to the background (Ctrl+B). */
  setForeground(toBackground: (() => void) | undefined): void;
  /** Ctrl+B: sends the command running in front to the background; false when none runs. */
  backgroundForeground(): boolean;
  /** At the session's end: every job still running is killed. */
  killAll(): void;
}
