// Background shell commands in the UI: the worker's reports, /jobs, and Ctrl+B.
import { jobState, type BackgroundJobView } from "../../protocol/jobs.js";
import type { Model } from "../model.js";
import type { Cmd } from "../msg.js";
import { addEntry } from "./transcript.js";
import { sanitizeLine } from "../../render/sanitize.js";

/** Keeps the worker's list; a job that stopped since the last report gets one notice. */
export function applyJobs(model: Model, jobs: BackgroundJobView[]): void {
  for (const job of jobs) {
    const before = model.jobs.find((j) => j.id === job.id);
    if (before?.state === "running" && job.state !== "running") {
      addEntry(model, {
        kind: "notice",
        level: "info",
        text: `Background command ${job.id} ended (${jobState(job)}): ${sanitizeLine(job.command)}`,
      });
    }
  }
  model.jobs = jobs;
}

/** `/jobs` lists the session's background commands; `/jobs kill <id>` stops one. */
export function runJobsCommand(model: Model, args: string[], cmds: Cmd[]): void {
  if (args[0] === "kill" || args[0] === "stop") {
    const id = args[1];
    if (!id) return void addEntry(model, { kind: "notice", level: "warn", text: "Usage: /jobs kill <id>" });
    cmds.push({ type: "worker", command: { type: "job-kill", id } });
    return;
  }
  if (model.jobs.length === 0) {
    addEntry(model, {
      kind: "notice",
      level: "info",
      text: "No background commands. The model starts one with run_in_background; Ctrl+B sends a running command there.",
    });
    return;
  }
  const lines = model.jobs.map((j) => `${j.id}  ${jobState(j).padEnd(12)} ${sanitizeLine(j.command)}`);
  addEntry(model, {
    kind: "notice",
    level: "info",
    text: `Background commands:\n${lines.join("\n")}\n/jobs kill <id> stops one.`,
  });
}

/** Ctrl+B while the run waits for a shell command: that command goes on in the background. */
export function shellToBackground(model: Model, cmds: Cmd[]): boolean {
  const run = model.run;
  if (!run) return false;
  const shell = model.entries.some((e) => e.kind === "tool" && e.state === "running" && e.name === "run_shell_command");
  if (!shell) return false;
  cmds.push({ type: "worker", command: { type: "background-shell", runId: run.id } });
  return true;
}
