import type { ToolResult } from "../../src/tools/types.js";
import { coreTools } from "../../src/tools/catalog.js";
import { runToolCall, type ToolOutcome } from "../../src/agent/tool-call.js";
import type { TestContext } from "./ctx.js";

/**
 * Runs a core tool through the runner, so the result is exactly what the model would read, with
 * the diff and path the UI was given beside it.
 */
export async function callTool(ctx: TestContext, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return asResult(await runToolCall({ id: ctx.callId, name, args }, coreTools, ctx));
}

/** An outcome in the shape tests compare: content, isError, and the display's diff and path. */
export function asResult(o: ToolOutcome): ToolResult {
  const r: ToolResult = { content: o.content };
  if (o.isError) r.isError = true;
  if (o.display?.diff) {
    r.diff = o.display.diff;
    r.path = o.display.path;
  }
  return r;
}

/** runToolCall, with its outcome in the shape tests compare (see asResult). */
export async function runCall(...args: Parameters<typeof runToolCall>): Promise<ToolResult> {
  return asResult(await runToolCall(...args));
}
