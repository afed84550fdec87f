// What stands before and after every tool call, whichever tool it is: the deny rules (a read tool
// asks nobody, so its deny must hold here), the PreToolUse hooks (block, or allow / ask for the
// approval that follows) and the PostToolUse hooks (what they say goes to the model with the
// result). The approval policy itself stays in approval.ts.
import type { RunConfig } from "../protocol/run-config.js";
import { toolWith, type ToolContext, type ToolDef, type ToolResult } from "../tools/types.js";
import { decide } from "../context/permission-rules.js";
import { deniedByRule, editedPaths } from "./approval.js";
import { claudeToolName, hasHooks, runHooks, toolInput } from "./hooks/hooks.js";

/**
 * The run's tools, each behind the gate. The config is read at call time (a mode or rules may
 * change). `stop` hears a hook's `continue: false` (its `stopReason`): the run ends after this step.
 */
export function gateTools(tools: ToolDef[], config: () => RunConfig, stop: (reason: string) => void): ToolDef[] {
  return tools.map((tool) =>
    toolWith(tool, { run: (args, ctx) => gated(tool, args as Record<string, unknown>, ctx, config(), stop) }),
  );
}

async function gated(
  tool: ToolDef,
  args: Record<string, unknown>,
  ctx: ToolContext,
  config: RunConfig,
  stop: (reason: string) => void,
): Promise<ToolResult> {
  const rule = decide(config.permissionRules ?? [], {
    tool: tool.name,
    args,
    cwd: ctx.cwd,
    ...(tool.name === "apply_patch" ? { paths: editedPaths(args) } : {}),
  });
  if (rule?.kind === "deny") return { content: deniedByRule(rule), isError: true };
  const names = [tool.name, claudeToolName(tool.name)];
  let run = ctx;
  if (hasHooks(config, "PreToolUse")) {
    const said = await runHooks(config, "PreToolUse", names, toolInput(config, tool.name, args), ctx.emit, ctx.signal);
    if (said.stop !== undefined) {
      stop(said.stop);
      return { content: `Not run: a PreToolUse hook stopped the run.`, isError: true };
    }
    if (said.block) return { content: `Blocked by a PreToolUse hook: ${said.block}`, isError: true };
    const verdict = said.permission === "allow" || said.permission === "ask" ? said.permission : undefined;
    // The verdict is this call's: a sub-agent's calls (delegate) get their own gate.
    if (verdict)
      run = { ...ctx, approve: (req, v) => ctx.approve(req, v ?? (req.tool === tool.name ? verdict : undefined)) };
  }
  const result = await tool.run(args, run);
  if (!hasHooks(config, "PostToolUse")) return result;
  const response = {
    content: result.content,
    is_error: result.isError === true,
    success: result.isError !== true,
    ...(result.path ? { filePath: result.path } : {}),
  };
  const said = await runHooks(
    config,
    "PostToolUse",
    names,
    { ...toolInput(config, tool.name, args), tool_response: response },
    ctx.emit,
    ctx.signal,
  );
  if (said.stop !== undefined) stop(said.stop);
  // The tool has run: a block can only tell the model (exit 2's stderr, `decision: "block"`'s reason).
  const notes = [...(said.block ? [`PostToolUse hook: ${said.block}`] : []), ...said.context];
  return notes.length ? { ...result, content: `${result.content}\n\n${notes.join("\n")}` } : result;
}
