// shell_output and kill_shell: the model's side of background commands (Claude Code's BashOutput
// and KillShell). The jobs are the session's (SessionMemory.jobs, tools/shell/jobs.ts).
import { maskSecretFileOutput } from "../../safety/secret-files.js";
import * as z from "zod";
import { defineTool, type ToolResult } from "../types.js";
import { outputLimit } from "../output.js";
import { jobState, type BackgroundJobView } from "../../protocol/jobs.js";

function unknownJob(id: string, jobs: BackgroundJobView[]): ToolResult {
  const known = jobs.map((j) => j.id).join(", ");
  return {
    content: `Error: no background command ${id}. ${known ? `Known: ${known}.` : "None was started."}`,
    isError: true,
  };
}

export const shellOutputTool = defineTool({
  name: "shell_output",
  description:
    "Read the new output of a background command (run_shell_command with run_in_background) since the last read, and whether it still runs or its exit code.",
  schema: () => z.object({ id: z.string().describe('The id run_shell_command returned, e.g. "bash_1".') }),
  readOnly: true,
  concurrentSafe: true,
  label: (args) => `output of ${args.id}`,
  run(args, ctx): ToolResult {
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
