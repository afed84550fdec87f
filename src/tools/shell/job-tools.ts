// shell_output and kill_shell: the model's side of background commands (Claude Code's BashOutput
// and KillShell). The jobs are the session's (SessionMemory.jobs, tools/shell/jobs.ts).
import { maskSecretFileOutput } from "../../safety/secret-files.js";
import * as z from "zod";
import { defineTool, type ToolResult } from "../types.js";
import { outputLimit } from "../output.js";
import { jobState, type BackgroundJobView } from "../../protocol/jobs.js";
import type { BackgroundJobs } from "./job-types.js";

function unknownJob(id: string, jobs: BackgroundJobView[]): ToolResult {
  const known = jobs.map((j) => j.id).join(", ");
  return {
    content: `Error: no background command ${id}. ${known ? `Known: ${known}.` : "None was started."}`,
    isError: true,
  };
}

/** shell_output's wait in seconds: Claude Code's and Codex's models expect a read to wait a while. */
export const OUTPUT_WAIT_DEFAULT_S = 10;
export const OUTPUT_WAIT_MAX_S = 120;

export const shellOutputTool = defineTool({
  name: "shell_output",
  description:
    "Read the new output of a background command (run_shell_command with run_in_background) since the last read, and whether it still runs or its exit code. Waits until the command prints something new or exits, at most `wait` seconds.",
  schema: () =>
    z.object({
      id: z.string().describe('The id run_shell_command returned, e.g. "bash_1".'),
      wait: z
        .number()
        .min(0)
        .optional()
        .describe(
          `Seconds to wait for new output or the exit when there is none yet. Default ${OUTPUT_WAIT_DEFAULT_S}, at most ${OUTPUT_WAIT_MAX_S}; 0 reads at once.`,
        ),
    }),
  readOnly: true,
  concurrentSafe: true,
  label: (args) => `output of ${args.id}`,
  async run(args, ctx): Promise<ToolResult> {
    const seconds = Math.min(args.wait ?? OUTPUT_WAIT_DEFAULT_S, OUTPUT_WAIT_MAX_S);
    await ctx.memory.jobs.waitForNews(args.id, seconds * 1000, ctx.signal);
    const read = ctx.memory.jobs.read(args.id, outputLimit(ctx.config));
    if (!read) return unknownJob(args.id, ctx.memory.jobs.list());
    const state = jobState(read.job);
    return {
      content: `${args.id}: ${state}\n${read.output === "" ? "(no new output)" : maskSecretFileOutput(read.job.command, ctx.cwd, read.output)}`,
      isError: read.job.state === "exited" && read.job.exitCode !== 0,
      summary: state,
    };
  },
});

/**
 * Whether every call reads a background command that still runs or has news: such polls are
 * progress, never a stuck loop (agent/stuck.ts Step.waiting).
 */
export function waitsOnJobs(
  calls: readonly { name: string; args: Record<string, unknown> }[],
  jobs: BackgroundJobs,
): boolean {
  return (
    calls.length > 0 &&
    calls.every((c) => c.name === shellOutputTool.name && typeof c.args.id === "string" && jobs.unsettled(c.args.id))
  );
}

export const killShellTool = defineTool({
  name: "kill_shell",
  description: "Stop a background command started with run_in_background (its whole process group).",
  schema: () => z.object({ id: z.string().describe('The id run_shell_command returned, e.g. "bash_1".') }),
  readOnly: false,
  concurrentSafe: true,
  label: (args) => `stop ${args.id}`,
  async run(args, ctx): Promise<ToolResult> {
    const job = await ctx.memory.jobs.kill(args.id);
    if (!job) return unknownJob(args.id, ctx.memory.jobs.list());
    return { content: `${args.id}: ${jobState(job)}`, summary: jobState(job) };
  },
});
