import type { ToolResult } from "../../src/tools/types.js";
import { coreTools } from "../../src/tools/catalog.js";
import { runToolCall } from "../../src/tools/runner.js";
import type { TestContext } from "./ctx.js";

/** Runs a core tool through the registry, so the result is exactly what the model would read. */
export function callTool(ctx: TestContext, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return runToolCall({ id: ctx.callId, name, args }, coreTools, ctx);
}
