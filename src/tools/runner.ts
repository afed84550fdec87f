// The tool runner: schemas for the model, argument validation, the abort race, secret
// masking, output truncation and the tool-start / diff / tool-end events. Tools never throw
// out of here: every failure becomes a result the model reads.
import { z } from "zod";
import type { ToolCall } from "../protocol/conversation.js";
import type { ToolContext, ToolDef, ToolResult, ToolSpec } from "./types.js";
import { maskSecrets } from "./secrets.js";
import { diffStats } from "./files/diff.js";

export const DEFAULT_OUTPUT_LIMIT = 32_000;
/** After an interrupt, a tool gets this long to return its own (partial) result. */
export const ABORT_GRACE_MS = 1_500;
export const NOT_RUN_INTERRUPTED = "Error: interrupted by the user before this tool ran.";
export const RUN_INTERRUPTED = "Error: interrupted by the user.";

/**
 * ToolResult (types.ts) has no summary field, so a tool that wants a particular one-line
 * summary for the UI returns this wider shape; otherwise the registry derives one
 * (see `summarize`).
 */
export interface SummarizedResult extends ToolResult {
  summary?: string;
}

// Tool definitions are long-lived values: their JSON schema is computed once.
const specCache = new WeakMap<ToolDef, ToolSpec>();

export function toolSpecs(tools: ToolDef[]): ToolSpec[] {
  return tools.map((tool) => {
    const cached = specCache.get(tool);
    if (cached) return cached;
    // "input" so that fields with a default are optional for the model.
    const raw = tool.jsonSchema ?? (z.toJSONSchema(tool.schema, { io: "input" }) as Record<string, unknown>);
    const { $schema: _drop, ...schema } = raw;
    const spec: ToolSpec = {
      name: tool.name,
      description: tool.description,
      parameters: { type: "object", properties: {}, ...schema },
    };
    specCache.set(tool, spec);
    return spec;
  });
}

/** Over the limit: the first half and the last quarter of the limit, with a count of what was cut. */
export function truncateOutput(s: string, limit: number): string {
  if (s.length <= limit) return s;
  const head = Math.floor(limit / 2);
  const tail = Math.floor(limit / 4);
  return joinTruncated(s.slice(0, head), s.length - head - tail, tail > 0 ? s.slice(-tail) : "");
}

export function joinTruncated(head: string, cut: number, tail: string): string {
  return `${head}\n[... ${cut} chars truncated ...]\n${tail}`;
}

export type ArgsCheck = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/**
 * Validates against the tool's zod schema. Leniencies for small models: arguments given as a
 * JSON string are parsed, and `null` for a field counts as leaving it out.
 */
export function validateArgs(tool: ToolDef, args: unknown): ArgsCheck {
  let input: unknown = args ?? {};
  if (typeof input === "string") {
    const text = input;
    try {
      input = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      return { ok: false, error: `Invalid arguments for ${tool.name}: not a JSON object: ${text.slice(0, 200)}` };
    }
  }
  if (input && typeof input === "object" && !Array.isArray(input)) {
    input = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null));
  }
  const parsed = tool.schema.safeParse(input);
  if (parsed.success) return { ok: true, args: parsed.data as Record<string, unknown> };
  const problems = parsed.error.issues.map(describeIssue).join("; ");
  return { ok: false, error: `Invalid arguments for ${tool.name}: ${problems}` };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.join(".") : "arguments";
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) {
    return `${field}: missing (expected ${issue.expected})`;
  }
  return `${field}: ${issue.message.replace(/^Invalid input: /, "")}`;
}

/** The one-liner shown on the tool's line when it ends. */
export function summarize(result: SummarizedResult): string {
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

function errorResult(content: string): SummarizedResult {
  return { content, isError: true };
}

/** Runs one call: never throws; emits tool-start, diff (when a file changed) and tool-end. */
export async function runToolCall(call: ToolCall, tools: ToolDef[], ctx: ToolContext): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === call.name);
  const checked: ArgsCheck = tool
    ? validateArgs(tool, call.args)
    : {
        ok: false,
        error: `Error: unknown tool "${call.name}". Available tools: ${tools.map((t) => t.name).join(", ")}.`,
      };
  // Unknown tools and bad arguments still get a line in the UI, so every call is accounted for.
  const label = tool && checked.ok ? safeLabel(tool, checked.args) : call.name;
  // Arguments that came as a JSON string are shown parsed; the UI event always carries an object.
  const shownArgs = checked.ok ? checked.args : isRecord(call.args) ? call.args : { arguments: String(call.args) };
  ctx.emit({ type: "tool-start", id: call.id, name: call.name, args: shownArgs, label });
  const raw =
    tool && checked.ok ? await runGuarded(tool, checked.args, ctx) : errorResult(checked.ok ? "" : checked.error);

  const limit = ctx.config.outputLimit > 0 ? ctx.config.outputLimit : DEFAULT_OUTPUT_LIMIT;
  const result: ToolResult = { content: truncateOutput(maskSecrets(raw.content), limit) };
  if (raw.isError) result.isError = true;
  if (raw.diff) {
    result.diff = maskSecrets(raw.diff);
    if (raw.path) result.path = raw.path;
    ctx.emit({ type: "diff", path: raw.path ?? "", unified: result.diff });
  }
  const summary = summarize({ ...raw, content: result.content, diff: result.diff });
  ctx.emit({ type: "tool-end", id: call.id, ok: !raw.isError, summary });
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function safeLabel(tool: ToolDef, args: Record<string, unknown>): string {
  try {
    return tool.label(args);
  } catch {
    return tool.name;
  }
}

async function runGuarded(tool: ToolDef, args: Record<string, unknown>, ctx: ToolContext): Promise<SummarizedResult> {
  const run = (async (): Promise<SummarizedResult> => {
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
  const interrupted = new Promise<SummarizedResult>((resolve) => {
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

/**
 * Runs a step's calls; results come back in call order. Consecutive concurrent-safe calls run
 * together, the others one at a time. Once the signal aborts, calls not yet started are not
 * run and get NOT_RUN_INTERRUPTED.
 */
export async function runToolCalls(
  calls: ToolCall[],
  tools: ToolDef[],
  makeCtx: (call: ToolCall) => ToolContext,
): Promise<ToolResult[]> {
  const results: ToolResult[] = new Array(calls.length);
  const concurrentSafe = (call: ToolCall): boolean => tools.find((t) => t.name === call.name)?.concurrentSafe === true;
  const runOne = async (index: number): Promise<void> => {
    const call = calls[index]!;
    const ctx = makeCtx(call);
    results[index] = ctx.signal.aborted ? errorResult(NOT_RUN_INTERRUPTED) : await runToolCall(call, tools, ctx);
  };
  let i = 0;
  while (i < calls.length) {
    let end = i + 1;
    if (concurrentSafe(calls[i]!)) {
      while (end < calls.length && concurrentSafe(calls[end]!)) end++;
    }
    const batch: Promise<void>[] = [];
    for (let k = i; k < end; k++) batch.push(runOne(k));
    await Promise.all(batch);
    i = end;
  }
  return results;
}
