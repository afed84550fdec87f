// Recover tool calls that a tool-capable model wrote into its text instead of the
// tool-call channel (common with small Ollama models and leaky chat templates).
//
// The rule that keeps explanations safe:
// - Call markup (<tool_call>, <function=…>, <|python_tag|>, [TOOL_CALLS], functools[…],
//   DeepSeek and gpt-oss tokens, a ```tool_code fence) is a call wherever it stands,
//   except inside inline `code` or a fenced block that is only part of the reply:
//   these tokens are not prose, only a model's call syntax.
// - Bare JSON (an object, an array, a ```json fence) is a call only when it is the whole
//   reply, give or take one short line before and one after, starts on its own line, and
//   every value in it is a call shape naming a known tool. An object inside a paragraph,
//   a config example or a call to an unknown name stays text.
// Only names in `toolNames` are recovered; call-shaped names that are not are reported
// in `unknown` so the loop can tell the model which tools exist.

import { callsOf, readValues } from "./json-values.js";
import { pythonCallList, SCANNERS, type MarkupMatch } from "./tool-call-markup.js";
import type { WrittenCall } from "./tool-call-shape.js";

export type RecoveredCall = WrittenCall;

export interface Recovery {
  calls: RecoveredCall[];
  /** The text without the call markup (what is still worth showing). */
  rest: string;
  /** Names written as calls that are not tools. */
  unknown: string[];
  /** Call markup was found but no call could be read from it (broken JSON and the like). */
  malformed: boolean;
}

const MAX_SIDE_LINE = 200;

/** End-of-turn tokens that leak into text; they never mean anything to the user. */
const END_TOKENS =
  /<\|(?:eot_id|eom_id|im_end|end|call|endoftext|return)\|>|<\/s>|<end_of_turn>|<｜end▁of▁sentence｜>/g;

export function recoverToolCalls(text: string, toolNames: readonly string[]): Recovery {
  const known = new Set(toolNames);
  // A leading <think> block (models whose template does not split thinking) is kept as
  // is and not searched: a model thinking about a call has not made it.
  const think = /^\s*<think>[\s\S]*?<\/think>\s*/.exec(text)?.[0] ?? "";
  // harmony's <|call|> closes a call: the scanner reads it before the end tokens go.
  const reply = text
    .slice(think.length)
    .replace(/<\|call\|>/g, "\n")
    .replace(END_TOKENS, "");
  const found = recoverMarkup(unwrapWholeFence(reply), known) ?? recoverBare(reply, known);
  if (!found) return { calls: [], rest: text, unknown: [], malformed: false };
  if (found.calls.length === 0) return { ...found, rest: text };
  return { ...found, rest: `${think.trim()}\n\n${found.rest}`.trim() };
}

function recoverMarkup(text: string, known: Set<string>): Recovery | undefined {
  const code = codeRegions(text);
  const inCode = (m: MarkupMatch): boolean => !m.fenced && code.some(([s, e]) => m.start >= s && m.start < e);
  const matches = [...SCANNERS, ownToolTags(known), patches(known)]
    .flatMap((scan) => scan(text))
    .filter((m) => !inCode(m))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: MarkupMatch[] = [];
  for (const m of matches) {
    if (kept.length === 0 || m.start >= kept[kept.length - 1]!.end) kept.push(m);
  }
  // A bare JSON call right before the first markup (then a tagged one) is a call too.
  const lead = kept.length > 0 ? bareLead(text.slice(0, kept[0]!.start)) : undefined;
  if (lead) kept.unshift(lead);
  const all = kept.flatMap((m) => m.calls);
  const calls = all.filter((c) => known.has(c.name));
  const unknown = all.filter((c) => !known.has(c.name)).map((c) => c.name);
  if (calls.length === 0 && unknown.length === 0) {
    const malformed = kept.some((m) => m.calls.length === 0 && !m.wrapper);
    return malformed ? { calls, rest: text, unknown, malformed } : undefined;
  }
  // Markup is removed from the text only when something in it was recovered; a reply
  // that names only unknown tools is kept whole for the user to see.
  const rest = calls.length > 0 ? cutSpans(text, kept) : text;
  return { calls, rest, unknown, malformed: false };
}

function bareLead(prefix: string): MarkupMatch | undefined {
  const start = prefix.search(/\S/);
  if (start < 0 || !/[{[]/.test(prefix[start]!)) return undefined;
  const run = readValues(prefix, start, true);
  const calls = run ? callsOf(run.values) : undefined;
  return calls ? { start, end: prefix.trimEnd().length, calls } : undefined;
}

/**
 * Cline-style XML named after one of our tools: `<read_file><path>a.txt</path></read_file>`.
 * Only our own names count, and only with the closing tag: HTML and prose stay text.
 */
function ownToolTags(known: Set<string>) {
  return (text: string): MarkupMatch[] => {
    const out: MarkupMatch[] = [];
    for (const m of text.matchAll(/<([a-z][\w-]*)>([\s\S]*?)<\/\1>/g)) {
      if (!known.has(m[1]!)) continue;
      const params = [...m[2]!.matchAll(/<([a-z][\w-]*)>([\s\S]*?)<\/\1>/g)];
      const rest = m[2]!.replace(/<([a-z][\w-]*)>[\s\S]*?<\/\1>/g, "").trim();
      if (rest !== "") continue;
      const args = Object.fromEntries(params.map((p) => [p[1]!, p[2]!.replace(/^\n|\n$/g, "")]));
      out.push({ start: m.index, end: m.index + m[0].length, calls: [{ name: m[1]!, args }] });
    }
    return out;
  };
}

/**
 * gpt-oss and Codex-trained models write an apply_patch patch into their text (often fenced):
 * it is that call when the model has the tool.
 */
function patches(known: Set<string>) {
  return (text: string): MarkupMatch[] =>
    known.has("apply_patch")
      ? [...text.matchAll(/\*\*\* Begin Patch\n[\s\S]*?\n\*\*\* End Patch/g)].map((m) => ({
          start: m.index,
          end: m.index + m[0].length,
          calls: [{ name: "apply_patch", args: { patch: m[0] } }],
          fenced: true,
        }))
      : [];
}

/** A reply that is one short line, a JSON call (or fenced JSON call), one short line. */
function recoverBare(text: string, known: Set<string>): Recovery | undefined {
  const lines = text.trim().split("\n");
  const starts = lines.map((l, i) => ({ l: l.trimStart(), i })).filter(({ l }) => /^(?:[{[]|```)/.test(l));
  const first = starts[0];
  if (!first || first.i > 1) return undefined;
  const lead = lines.slice(0, first.i).join("\n").trim();
  if (lead.length > MAX_SIDE_LINE) return undefined;
  const body = lines.slice(first.i).join("\n");
  const parsed = bareBody(body);
  if (!parsed) return undefined;
  const trail = parsed.trail.trim();
  if (trail.includes("\n") || trail.length > MAX_SIDE_LINE) return undefined;
  const calls = parsed.calls.filter((c) => known.has(c.name));
  const unknown = parsed.calls.filter((c) => !known.has(c.name)).map((c) => c.name);
  if (unknown.length > 0) return { calls: [], rest: text, unknown, malformed: false };
  return { calls, rest: [lead, trail].filter((s) => s !== "").join("\n"), unknown: [], malformed: false };
}

/** The calls at the start of `body` and the text after them, or undefined if not calls. */
function bareBody(body: string): { calls: RecoveredCall[]; trail: string } | undefined {
  const fence = /^\s*```(json|tool_call|tool_code|javascript|js|python)?[ \t]*\n([\s\S]*?)\n?[ \t]*```/.exec(body);
  if (fence) {
    const inner = fence[2]!.trim();
    const calls = fence[1] === "tool_code" || fence[1] === "python" ? pythonCallList(inner) : jsonCalls(inner);
    return calls ? { calls, trail: body.slice(fence[0].length) } : undefined;
  }
  const run = readValues(body);
  if (run) {
    const calls = callsOf(run.values);
    return calls ? { calls, trail: body.slice(run.end) } : undefined;
  }
  // Llama 3.2's pythonic list: [read_file(path="a.txt"), …] alone on its line.
  const line = body.split("\n")[0]!.trim();
  const calls = /^\[.*\]$/.test(line) ? pythonCallList(line.slice(1, -1)) : undefined;
  return calls ? { calls, trail: body.slice(body.indexOf("\n") === -1 ? body.length : body.indexOf("\n")) } : undefined;
}

function jsonCalls(inner: string): RecoveredCall[] | undefined {
  const run = readValues(inner, 0, true);
  return run ? callsOf(run.values) : undefined;
}

/** A reply that is only a fenced block (maybe after one short line): its lead + inside. */
function unwrapWholeFence(text: string): string {
  const m = /^\s*([^\n]*\n)?[ \t]*```(?!tool_code)[\w-]*[ \t]*\n([\s\S]*?)\n?[ \t]*```\s*$/.exec(text);
  if (!m || m[2]!.includes("```") || (m[1] ?? "").length > MAX_SIDE_LINE) return text;
  return `${m[1] ?? ""}${m[2]}`;
}

/** [start, end) of fenced blocks and inline code spans. */
function codeRegions(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of text.matchAll(/```[\s\S]*?(?:```|$)|`[^`\n]+`/g)) out.push([m.index, m.index + m[0].length]);
  return out;
}

function cutSpans(text: string, spans: readonly MarkupMatch[]): string {
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start);
    at = s.end;
  }
  out += text.slice(at);
  return out
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
