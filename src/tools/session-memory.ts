// What the tools of one agent session remember between calls and runs. It is a value the session
// owns and hands to every tool in its ToolContext, so two sessions in one process (a worker's, an
// editor's) never see each other's facts, and a test can start from a known memory.
import type { BackgroundJobs } from "./shell/job-types.js";

export interface SessionMemory {
  /** The session these facts are about (RunConfig.sessionId): /new starts a new memory. */
  readonly sessionId: string | undefined;
  /** What the model has seen of each file: the hash of the bytes it last read or wrote, by absolute path. */
  readonly seen: Map<string, string>;
  /** Edits of each file that failed in a row, by absolute path (the second suggests write_file). */
  readonly editFailures: Map<string, number>;
  /** Replies whose native tool calls could not be read (agent/model-info.ts switches to JSON at a limit). */
  nativeFailures: number;
  /** ripgrep failed to start: later searches go straight to the JavaScript engine. */
  ripgrepUnavailable: boolean;
  /** "provider model" pairs whose server refused a reply constraint (agent/loop.ts): sent without it since. */
  constraintRefused?: Set<string>;
  /** "provider model" pairs whose server was asked whether it constrains replies (agent/constraint-capability.ts). */
  constraintAsked?: Set<string>;
  /** The user was told the server cuts the prompt (agent/loop.ts): once a session is enough. */
  truncationTold?: boolean;
  /** The user was told a turn re-read a prompt the server should have cached (agent/cache-miss.ts). */
  cacheMissTold?: boolean;
  /** The SessionStart hooks ran (agent/loop.ts): once per session, "resume" for a resumed one. */
  sessionStarted?: boolean;
  /** This session began with /clear (or /new) ending the one before: SessionStart says "clear". */
  afterClear?: boolean;
  /** Background shell commands: they outlive a run (and /new), and end with the session. */
  readonly jobs: BackgroundJobs;
}

/**
 * Jobs for a memory that has none of its own (a test's, a loop started without a session): every
 * start is refused. A session passes its own (shell/jobs.ts), which also keeps this file free of
 * the shell's code.
 */
const NO_JOBS: BackgroundJobs = {
  start: () => {
    throw new Error("background commands need an agent session");
  },
  adopt: () => {
    throw new Error("background commands need an agent session");
  },
  read: () => undefined,
  waitForNews: () => Promise.resolve(),
  unsettled: () => false,
  kill: () => Promise.resolve(undefined),
  list: () => [],
  setForeground: () => {},
  backgroundForeground: () => false,
  killAll: () => {},
};

export function createSessionMemory(sessionId?: string, jobs: BackgroundJobs = NO_JOBS): SessionMemory {
  return {
    sessionId,
    seen: new Map(),
    editFailures: new Map(),
    nativeFailures: 0,
    ripgrepUnavailable: false,
    jobs,
  };
}
