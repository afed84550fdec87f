// Recover tool calls that a tool-capable model wrote into its text instead of the tool-call
// channel (small Ollama models, leaky chat templates, families nobody listed yet).
//
// A call written as text has three parts, read separately so that a family never seen before is
// read when it combines parts we know: the name (call-names.ts), the arguments in one of a few
// encodings (call-args.ts), and the wrapper (call-wrappers.ts). A candidate is a call when its name
// is one of the run's tools and its arguments validate against that tool's schema (call-checks.ts).
//
// Where a candidate stands decides whether it is a call:
// - behind a marker (a special token, a tag that says tool/call/function, a recipient header),
//   wherever it stands, unless the marker sits in inline code or a fence that is only part of
//   the reply, or the paragraph before it explains a format;
// - bare (a JSON object or list, a fence, a pythonic call) only when the reply is one to three
//   short sentences, then the call on its own lines, then at most one short line.
// What is call-like but yields no call is reported (`malformed`, `detail`) so that the loop asks
// the model again instead of taking it as the final answer.

import { placePositional } from "./call-args.js";
import { checkArgs, explainsFormat } from "./call-checks.js";
import { bareName, nameBook, type NameBook, type ToolShape } from "./call-names.js";
import { bare, shortLead } from "./bare-calls.js";
import { readMarkup, type Candidate } from "./call-reader.js";
import { codeRegions, markers, type Marker } from "./call-wrappers.js";
import type { WrittenCall } from "./tool-call-shape.js";

export type RecoveredCall = WrittenCall;
export type { ToolShape } from "./call-names.js";

export interface Recovery {
  calls: RecoveredCall[];
  /** The text without the call markup (what is still worth showing). */
  rest: string;
  /** Names written as calls that are not tools. */
  unknown: string[];
  /** Call-like text was found but no call could be read from it. */
  malformed: boolean;
  /** What was wrong with it, for the corrective message. */
  detail?: string;
}

/** End-of-turn tokens that leak into text; they never mean anything to the user. */
const END_TOKENS =
  /<\|(?:eot_id|eom_id|im_end|end|endoftext|return|end_of_text)\|>|<\/s>|<end_of_turn>|<[｜|]end▁of▁sentence[｜|]>/g;

export function recoverToolCalls(text: string, tools: readonly (string | ToolShape)[]): Recovery {
  const book = nameBook(tools);
  if (!mayHoldCall(text, book)) return { calls: [], rest: text, unknown: [], malformed: false };
  // A leading <think> block (models whose template does not split thinking) is kept as
  // is and not searched: a model thinking about a call has not made it. Templates that open the
  // block themselves (QwQ, DeepSeek-R1, Hermes 4) leave only its closer in the reply.
  const think = /^\s*(?:<think>[\s\S]*?|(?:(?!<think>)[\s\S])*?)<\/think>\s*/.exec(text)?.[0] ?? "";
  const reply = quoteTokens(
    text
      .slice(think.length)
      .replace(/<\|call\|>/g, "\n")
      .replace(END_TOKENS, ""),
  );
  const body = unwrapWholeFence(reply);
  const marks = markers(body, book);
  const markup = readMarkup(body, marks, book);
  let found = markup.found;
  let cuts = markup.cuts;
  if (found.length > 0) {
    // A bare call right before the first marker (then a tagged one) is a call too.
    const lead = bare(body.slice(0, marks[0]!.start), book);
    if (lead) {
      found = [...lead.found, ...found];
      cuts = [...lead.cuts, ...cuts];
    }
  } else {
    const whole = bare(body, book);
    if (whole) ({ found, cuts } = whole);
  }
  const patched = patches(body, book);
  found = [...found, ...patched];
  cuts = [...cuts, ...patched];

  const calls: RecoveredCall[] = [];
  const unknown: string[] = [];
  const unfit: string[] = [];
  for (const c of found) {
    const tool = book.resolve(c.name);
    if (!tool) {
      unknown.push(bareName(c.name));
      continue;
    }
    const placed = placePositional(c.args, tool.parameters);
    const verdict = placed
      ? checkArgs(placed, tool.parameters)
      : { ok: false as const, why: "it has more values than parameters" };
    if (verdict.ok) calls.push({ name: tool.name, args: verdict.args });
    else unfit.push(`it wrote a call to "${tool.name}" that does not fit the tool: ${verdict.why}`);
  }
  if (calls.length > 0 && answersAfter(body, cuts)) {
    const detail = "it wrote a tool call and then a final answer, as if the call had already run";
    return { calls: [], rest: text, unknown: [], malformed: true, detail };
  }
  if (calls.length > 0) {
    const rest = cutSpans(body, cuts);
    return { calls, rest: `${think.trim()}\n\n${rest}`.trim(), unknown, malformed: false };
  }
  if (unknown.length > 0) return { calls: [], rest: text, unknown, malformed: false };
  // Judged on the reply as written: a fence that is code there is code here.
  const detail = unfit[0] ?? (markup.examples ? undefined : callLike(reply, markers(reply, book), book));
  return detail
    ? { calls: [], rest: text, unknown: [], malformed: true, detail }
    : { calls: [], rest: text, unknown: [], malformed: false };
}

/**
 * Whether any reader could find a call (or call-like text) in `text`. Every call names a tool the
 * book resolves, so that name is in the text in some case (a namespace or `:0` around it aside);
 * a patch is an apply_patch call by its own marker; and a name that is no tool is only reported
 * from markup (`{`, `<`, `[`). Plain prose, most answers, skips the readers: V8 compiles each of
 * their regular expressions at its first use, ~3 ms of a one-shot's first answer.
 */
export function mayHoldCall(text: string, book: NameBook): boolean {
  if (/[{<[]|\*\*\* Begin Patch/.test(text)) return true;
  const lower = text.toLowerCase();
  return book.tools.some((t) => lower.includes(t.name.toLowerCase()));
}

/**
 * A ReAct reply that goes on past its call to a final answer wrote a transcript: the observation
 * between them is its own invention (LangChain's ReAct parser refuses a reply with both).
 */
function answersAfter(text: string, cuts: readonly { end: number }[]): boolean {
  const last = Math.max(...cuts.map((c) => c.end));
  return /(?:^|\n)[ \t]*Final Answer[ \t]*:/i.test(text.slice(last));
}

/**
 * gpt-oss and Codex-trained models write an apply_patch patch into their text (often fenced):
 * it is that call when the model has the tool.
 */
function patches(text: string, book: NameBook): Candidate[] {
  if (!book.resolve("apply_patch")) return [];
  return [...text.matchAll(/\*\*\* Begin Patch\n[\s\S]*?\n\*\*\* End Patch/g)].map((m) => ({
    name: "apply_patch",
    args: { patch: m[0] },
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/**
 * Call-like text that yielded no call: call markup of any kind, or one of our tools named next
 * to argument-like text (`name(k=`, `name {`, `"name": "tool"`, parameter tags), outside code
 * and not inside an explanation of a format.
 */
function callLike(text: string, marks: Marker[], book: NameBook): string | undefined {
  const code = codeRegions(text);
  const inCode = (i: number) => code.some(([s, e]) => i >= s && i < e);
  const explained = (i: number) => explainsFormat(text.slice(0, i), text.slice(i));
  const mark = marks.find((m) => m.callish && !explained(m.start));
  if (mark) {
    const token = text.slice(mark.start, mark.end);
    return `it wrote a tool call into its text that could not be read (markup ${token} with no readable call after it)`;
  }
  if (book.tools.length === 0) return undefined;
  const names = book.tools.map((t) => t.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  const near = new RegExp(
    String.raw`(?<![\w])(?:[A-Za-z_]\w*[.:])?(${names})(?![\w])\s*(?:\(\s*(?:\)|[A-Za-z_]\w*\s*=|["'{\[])|:?\s*\{\s*["'\w])|["'](?:name|tool|tool_name|function)["']\s*:\s*["'](?:\w+[.:])?(${names})["']|<(?:parameter|arg_key)\b`,
    "gi",
  );
  for (const m of text.matchAll(near)) {
    if (inCode(m.index) || explained(m.index)) continue;
    const name = m[1] ?? m[2] ?? "a tool";
    return `it wrote a tool call into its text that could not be read (${name} with arguments, outside any call format)`;
  }
  return undefined;
}

/** FunctionGemma's `<escape>v<escape>` and Gemma 4's `<|"|>v<|"|>` quote strings: JSON-quoted here. */
function quoteTokens(text: string): string {
  return text.replace(/<escape>([\s\S]*?)<escape>|<\|"\|>([\s\S]*?)<\|"\|>/g, (_, a?: string, b?: string) =>
    JSON.stringify(a ?? b ?? ""),
  );
}

/** A reply that is a short lead-in and one fenced block of call markup: the lead-in + the inside. */
function unwrapWholeFence(text: string): string {
  const open = /(?:^|\n)[ \t]*```/.exec(text);
  if (!open) return text;
  const at = open.index + (text[open.index] === "\n" ? 1 : 0);
  const m = /^[ \t]*```[\w-]*[ \t]*\n([\s\S]*?)\n?[ \t]*```\s*$/.exec(text.slice(at));
  const lead = text.slice(0, at);
  if (!m || m[1]!.includes("```") || !shortLead(lead)) return text;
  // Plain JSON or pythonic calls in a fence are the bare rule's; markup is read once the fence is off.
  return /^\s*(?:<|\[[A-Z_]|>>>|Action:)/.test(m[1]!) ? `${lead}${m[1]}` : text;
}

/** The text with the spans cut; markers and filler between two cuts go with them. */
function cutSpans(text: string, spans: readonly { start: number; end: number }[]): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const s of sorted) {
    const last = merged[merged.length - 1];
    const gap = last ? text.slice(last.end, s.start) : "";
    if (last && (s.start <= last.end || (/^[\s\w-]{0,40}$/.test(gap) && gap.trim().split(/\s+/).length <= 2))) {
      last.end = Math.max(last.end, s.end);
    } else merged.push({ ...s });
  }
  let out = "";
  let at = 0;
  for (const s of merged) {
    out += text.slice(at, s.start);
    at = Math.max(at, s.end);
  }
  out += text.slice(at);
  return out
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
