// run_shell_command in the client's terminal (ACP terminal/*): the same approval first, the same
// argv agent0 would spawn, and the same answer to the model as a command of its own.
import { describe, expect, it } from "vitest";
import type { TerminalCommand, TerminalOutcome } from "../../src/tools/types.js";
import { makeCtx, project } from "./ctx.js";
import { callTool } from "./call.js";

function terminal(outcome: Partial<TerminalOutcome>) {
  const runs: TerminalCommand[] = [];
  return {
    runs,
    terminal: {
      async run(cmd: TerminalCommand): Promise<TerminalOutcome> {
        runs.push(cmd);
        return { output: "", exitCode: 0, signal: null, timedOut: false, interrupted: false, ...outcome };
      },
    },
  };
}

describe("run_shell_command through the client's terminal", () => {
  it("runs the approved command there and answers with its output and exit code", async () => {
    const dir = project({});
    const t = terminal({ output: "3 passed\n", exitCode: 1 });
    const ctx = { ...makeCtx(dir, { callId: "call-7" }), terminal: t.terminal };
    const result = await callTool(ctx, "run_shell_command", { command: "npm test" });
    expect(ctx.approvals.map((a) => a.preview)).toEqual(["npm test"]);
    expect(t.runs).toHaveLength(1);
    expect(t.runs[0]).toMatchObject({ file: "bash", args: ["-c", "exec 2>&1\nnpm test"], cwd: dir, callId: "call-7" });
    expect(t.runs[0]!.env).toMatchObject({ PAGER: "cat", GIT_TERMINAL_PROMPT: "0" });
    expect(result).toMatchObject({ content: "exit code 1\n3 passed\n", isError: true });
  });

  it("a denied command never reaches the terminal", async () => {
    const dir = project({});
    const t = terminal({});
    const result = await callTool({ ...makeCtx(dir, { deny: "not now" }), terminal: t.terminal }, "run_shell_command", {
      command: "rm -rf build",
    });
    expect(result.isError).toBe(true);
    expect(t.runs).toEqual([]);
  });

  it("a timeout in the terminal reads as one of agent0's own", async () => {
    const dir = project({});
    const t = terminal({ output: "partial", exitCode: null, timedOut: true });
    const result = await callTool({ ...makeCtx(dir), terminal: t.terminal }, "run_shell_command", {
      command: "sleep 100",
      timeout_ms: 1000,
    });
    expect(result.content).toBe("Error: timed out after 1 s; the command and its children were killed.\npartial");
  });

  it("with the sandbox on, commands stay in agent0's own sandboxed shell, not the editor's terminal", async () => {
    const dir = project({});
    const t = terminal({});
    const ctx = { ...makeCtx(dir), terminal: t.terminal };
    ctx.config.sandbox = "workspace-write";
    await callTool(ctx, "run_shell_command", { command: "true" });
    expect(t.runs).toEqual([]);
  });
});
