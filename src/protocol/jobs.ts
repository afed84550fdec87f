// Part of protocol/: what the UI is told of the session's background shell commands (/jobs, the
// status line's count).

export interface BackgroundJobView {
  /** The id the model and /jobs name it by, e.g. "bash_1". */
  id: string;
  command: string;
  pid?: number;
  state: "running" | "exited" | "killed";
  exitCode: number | null;
  signal: string | null;
  /** Stopped by kill_shell, /jobs kill or the session's end. */
  killed?: boolean;
}

/** "running", "exit code 0", "killed" … as the model and /jobs read it. */
export function jobState(job: BackgroundJobView): string {
  if (job.killed || job.state === "killed") return "killed";
  if (job.state === "running") return "running";
  return job.exitCode === null ? `killed by signal ${job.signal}` : `exit code ${job.exitCode}`;
}
