// What every call's run shares: schemas for the model, argument validation, the abort race and the
// one-line summary. The call's way through its stages is agent/tool-call.ts.
import * as z from "zod";
import type { ToolContext, ToolDef, ToolResult } from "./types.js";
import type { ToolSpec } from "../protocol/tool-spec.js";
import { diffStats } from "./files/diff.js";
import { parseToolArgs } from "../providers/tool-args.js";
import { describeIssue } from "./arg-issue.js";

/** After an interrupt, a tool gets this long to return its own (partial) result. */
export const ABORT_GRACE_MS = 1_500;
export const NOT_RUN_INTERRUPTED = "Error: interrupted by the user before this tool ran.";
export const RUN_INTERRUPTED = "Error: interrupted by the user.";

// Tool definitions are long-lived values: their JSON schema is computed once.
// eslint-disable-next-line no-restricted-syntax -- a cache of a pure function of the (immutable) ToolDef
const specCache = new WeakMap<ToolDef, ToolSpec>();

/** Set in the bundle only: the built-in tools' parameters as JSON, computed at build time (tools/builtin-schemas.ts). */
declare const AGENT0_BUILTIN_TOOL_SCHEMAS: string | undefined;
// eslint-disable-next-line no-restricted-syntax -- a cache: the build-time constant, parsed once
let builtinParameters: Record<string, Record<string, unknown>> | undefined;

export function toolSpecs(tools: ToolDef[]): ToolSpec[] {
  return tools.map((tool) => {
    const cached = specCache.get(tool);
    if (cached) return cached;
    const spec: ToolSpec = {
      name: tool.name,
      description: tool.description,
      parameters: prebuilt(tool) ?? parameters(tool),
    };
    specCache.set(tool, spec);
    return spec;
  });
}

function prebuilt(tool: ToolDef): Record<string, unknown> | undefined {
  if (tool.jsonSchema) return undefined;
  builtinParameters ??=
    typeof AGENT0_BUILTIN_TOOL_SCHEMAS === "string"
      ? (JSON.parse(AGENT0_BUILTIN_TOOL_SCHEMAS) as Record<string, Record<string, unknown>>)
      : {};
  return Object.hasOwn(builtinParameters, tool.name) ? builtinParameters[tool.name] : undefined;
}

function parameters(tool: ToolDef): Record<string, unknown> {
  // "input" so that fields with a default are optional for the model.
  const raw = tool.jsonSchema ?? (z.toJSONSchema(tool.schema, { io: "input" }) as Record<string, unknown>);
  const { $schema: _drop, ...schema } = raw;
  return { type: "object", properties: {}, ...schema };
}

export type ArgsCheck = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/**
 * Validates against the tool's zod schema. Leniencies for small models: arguments given as a
 * JSON string are read by the one rule (providers/tool-args.ts), and `null` for a field counts
 * as leaving it out.
 */
export function validateArgs(tool: ToolDef, args: unknown): ArgsCheck {
  const read = parseToolArgs(args);
  if (!read.ok) return { ok: false, error: `Invalid arguments for ${tool.name}: ${read.error}` };
  const input = Object.fromEntries(Object.entries(read.args).filter(([, v]) => v !== null));
  const parsed = tool.schema.safeParse(input);
  if (parsed.success) return { ok: true, args: parsed.data as Record<string, unknown> };
  const problems = parsed.error.issues.map(describeIssue).join("; ");
  return { ok: false, error: `Invalid arguments for ${tool.name}: ${problems}` };
}

/** The one-liner shown on the tool's line when it ends. */
export function summarize(result: ToolResult): string {
  if (result.summary) return firstLine(result.summary);
  if (result.isError) return firstLine(result.content);
  if (result.diff) {
    const { added, removed } = diffStats(result.diff);
    return `+${added} -${removed}`;
  }
  const lines = result.content === "" ? 0 : result.content.replace(/\n$/, "").split("\n").length;
  if (lines === 1 && result.content.length <= 80) return result.content.trim();
  return lines === 1 ? "1 line" : `${lines} lines`;
}

function firstLine(s: string): string {
  const line = s.trim().split("\n")[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

function errorResult(content: string): ToolResult {
  return { content, isError: true };
}

/** Runs the tool with the abort race: never throws; after an interrupt the tool gets ABORT_GRACE_MS. */
export async function runGuarded(tool: ToolDef, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const run = (async (): Promise<ToolResult> => {
    try {
      return await tool.run(args, ctx);
    } catch (err) {
      return errorResult(`Error: ${err instanceof Error ? err.message : String(err)}`);
    }
  })();
  // A tool that ignores the signal must not hold the turn: after a grace period the call
  // ends as interrupted even if the tool is still busy.
  let timer: NodeJS.Timeout | undefined;
  let onAbort = (): void => {};
  const interrupted = new Promise<ToolResult>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve(errorResult(RUN_INTERRUPTED)), ABORT_GRACE_MS);
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([run, interrupted]);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
  }
}
