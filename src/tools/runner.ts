// The tool runner: schemas for the model, argument validation, the abort race, secret
// masking, output truncation and the tool-start / diff / tool-end events. Tools never throw
// out of here: every failure becomes a result the model reads.
import * as z from "zod";
import type { ImageAttachment, ToolCall, ToolDisplay } from "../protocol/conversation.js";
import type { ToolContext, ToolDef, ToolResult } from "./types.js";
import type { ToolSpec } from "../protocol/tool-spec.js";
import { maskSecrets } from "../safety/secrets.js";
import { projectSecretValues } from "../safety/secret-files.js";
import { forModel, outputLimit } from "./output.js";
import { diffStats } from "./files/diff.js";
import { parseToolArgs } from "../providers/tool-args.js";

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

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.join(".") : "arguments";
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) {
    return `${field}: missing (expected ${issue.expected})`;
  }
  return `${field}: ${issue.message.replace(/^Invalid input: /, "")}`;
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

/** A call skipped because the run was stopped first: no line in the UI, a result for the model all the same. */
function notRun(): ToolOutcome {
  return { content: NOT_RUN_INTERRUPTED, isError: true };
}

function errorResult(content: string): ToolResult {
  return { content, isError: true };
}

/** A finished call: what the model reads (masked, truncated) and what the UI shows for it. */
export interface ToolOutcome {
  content: string;
  isError?: boolean;
  /** Absent for a call that never started (the UI showed no line for it). */
  display?: ToolDisplay;
  /** Images for the model, only when it reads them (config.seesImages). */
  images?: ImageAttachment[];
}

/** Runs one call: never throws; emits tool-start, then tool-end with the call's display. */
export async function runToolCall(call: ToolCall, tools: ToolDef[], ctx: ToolContext): Promise<ToolOutcome> {
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

  const content = forModel(raw.content, outputLimit(ctx.config), ctx.cwd, ctx.config.addDirs);
  const diff = raw.diff
    ? maskSecrets(raw.diff, process.env, projectSecretValues(ctx.cwd, ctx.config.addDirs))
    : undefined;
  const display: ToolDisplay = { label, ok: !raw.isError, summary: summarize({ ...raw, content, diff }) };
  if (diff) {
    display.diff = diff;
    display.path = raw.path ?? "";
  } else if (content) {
    // What the tool printed, as the model read it, for Ctrl+O (a change shows its diff instead).
    display.output = content;
    if (raw.lang) display.outputLang = raw.lang;
  }
  ctx.emit({ type: "tool-end", id: call.id, display });
  const outcome: ToolOutcome = raw.isError ? { content, isError: true, display } : { content, display };
  // Stored in the session only when a model will read them: base64 is large.
  if (raw.images?.length && ctx.config.seesImages) outcome.images = raw.images;
  return outcome;
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

async function runGuarded(tool: ToolDef, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
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

/**
 * Runs a step's calls; results come back in call order. Consecutive concurrent-safe calls run
 * together, the others one at a time. Once the signal aborts, calls not yet started are not
 * run and get NOT_RUN_INTERRUPTED.
 */
export async function runToolCalls(
  calls: ToolCall[],
  tools: ToolDef[],
  makeCtx: (call: ToolCall) => ToolContext,
): Promise<ToolOutcome[]> {
  const results: ToolOutcome[] = new Array(calls.length);
  const concurrentSafe = (call: ToolCall): boolean => tools.find((t) => t.name === call.name)?.concurrentSafe === true;
  const runOne = async (index: number): Promise<void> => {
    const call = calls[index]!;
    const ctx = makeCtx(call);
    results[index] = ctx.signal.aborted ? notRun() : await runToolCall(call, tools, ctx);
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
