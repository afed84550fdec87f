// What makes a candidate a call, beyond its three parts: its arguments validate against the
// tool's schema and are not placeholders, and it is not an example inside an explanation.
import * as z from "zod";
import { isRecord } from "../../providers/lenient-json.js";
import { coerceArgs } from "./coerce-args.js";
import { describeIssue } from "../../tools/arg-issue.js";

export type ArgsVerdict = { ok: true; args: Record<string, unknown> } | { ok: false; why: string };

/**
 * Placeholders a small model copies from its instructions: `<function-name>`, `<value>`, `$ARG`,
 * `${PATH}`, `...`, `{{path}}`, `path/to/file`. A tag-like value is a placeholder only when it reads
 * as one (`<div>` is a real search pattern).
 */
const PLACEHOLDER =
  /^(?:<[a-z][a-z0-9]*(?:[ _-][a-z0-9]+)+>|<(?:value|path|name|arg|args|file|query|pattern|command|content|text|string|number|url|dir)>|\$\{?[A-Z_][A-Z0-9_]*\}?|\.{3}|…|\{\{[^}]*\}\}|path\/to\/[\w./-]*)$/i;

export function isPlaceholder(v: unknown): boolean {
  return typeof v === "string" && PLACEHOLDER.test(v.trim());
}

/** The arguments typed by the schema, then checked against it; placeholders are no values. */
export function checkArgs(args: Record<string, unknown>, schema: Record<string, unknown> | undefined): ArgsVerdict {
  const placeholder = Object.entries(args).find(([, v]) => isPlaceholder(v));
  if (placeholder)
    return { ok: false, why: `"${placeholder[0]}" is a placeholder (${String(placeholder[1])}), not a value` };
  if (!schema) return { ok: true, args };
  const typed = coerceArgs(args, schema);
  const issue = schemaIssue(typed, schema);
  const broken = issue === null ? shapeIssue(typed, schema) : issue;
  return broken ? { ok: false, why: broken } : { ok: true, args: typed };
}

/**
 * The whole schema, as JSON Schema means it (enums, bounds, lengths, nested items), checked by
 * zod's reading of it: what the run would refuse is no call. Undefined when it holds; null when
 * zod cannot read the schema (draft-07 `definitions` refs, if/then, external refs).
 */
function schemaIssue(args: Record<string, unknown>, schema: Record<string, unknown>): string | null | undefined {
  let parsed: ReturnType<z.ZodType["safeParse"]>;
  try {
    parsed = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(args);
  } catch {
    return null;
  }
  return parsed.success ? undefined : describeIssue(parsed.error.issues[0]!);
}

/**
 * For a schema zod cannot read, what a JSON Schema states plainly at its top: the required
 * fields, no others when it says so, and each field's type.
 */
function shapeIssue(args: Record<string, unknown>, schema: Record<string, unknown>): string | undefined {
  const props = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [];
  const missing = required.find((r) => args[r] === undefined || args[r] === null);
  if (missing !== undefined) return `${missing}: missing`;
  if (schema.additionalProperties === false) {
    const extra = Object.keys(args).find((k) => !(k in props));
    if (extra !== undefined) return `${extra}: the tool has no such parameter`;
  }
  for (const [key, value] of Object.entries(args)) {
    const prop = props[key];
    if (!isRecord(prop) || value === null) continue;
    if (!typeFits(value, prop.type)) return `${key}: expected ${String(prop.type)}`;
  }
  return undefined;
}

function typeFits(value: unknown, type: unknown): boolean {
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  const actual = Array.isArray(value)
    ? "array"
    : typeof value === "number"
      ? Number.isInteger(value)
        ? ["integer", "number"]
        : ["number"]
      : typeof value === "object"
        ? "object"
        : typeof value;
  return (Array.isArray(actual) ? actual : [actual]).some((a) => types.includes(a));
}

/** Words that say the text around a call shows an example rather than makes a call. */
const STRONG_CUE =
  /\bexample:|\b(?:example|sample) (?:output|response|reply|request|call)s?:|\be\.g\.|\b(?:for example|for instance|an example|example of|would look like|looks like this|something like|(?:a|the) typical (?:response|reply|output|call)|should look like|is written as|the format is|in this format|to call a tool|when you call a tool|the model (?:writes|emits|outputs))\b/i;
const WEAK_CUE =
  /\b(?:like this|as follows|such as|format|example|syntax|template|markup|wraps?|wrapped|tags?|looks? like|(?:models?|it|they|assistant|agent) (?:write|writes|wrote|emit|emits|emitted|output|outputs|print|prints|printed|returns?|returned|answers? with|responds? with)|you (?:can|could|would|should|must) (?:write|use|call|output|emit|respond)|(?:you|I|we) (?:already |previously )?(?:called|ran|invoked))\b/i;

/**
 * An example inside an explanation: the paragraph before it explains a format, and either says
 * so plainly or the explanation goes on after it.
 */
export function explainsFormat(before: string, after: string): boolean {
  // The blank line that often ends a lead-in ("… would look like this:\n\n") does not end its paragraph.
  const trimmed = before.trimEnd();
  const near = trimmed.slice(Math.max(0, trimmed.length - 400));
  const paragraph = near.slice(near.lastIndexOf("\n\n") + 1);
  if (STRONG_CUE.test(paragraph)) return true;
  // An input/output pair: the call is a test case's input (`Input:\n{…}\nOutput: …`).
  if (/^\s*(?:Output|Expected(?: output)?|Result)\s*:/i.test(after)) return true;
  return WEAK_CUE.test(paragraph) && after.trim().length > 40;
}

/** Words in the one line after a bare call that say it was shown, not made ("…the YAML equivalent, for reference"). */
const AFTER_CUE = /\b(?:format|syntax|examples?|equivalent|for reference|template|schema)\b/i;

export function explainedAfter(line: string): boolean {
  return AFTER_CUE.test(line);
}
