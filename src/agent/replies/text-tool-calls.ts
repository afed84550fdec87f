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

import { isRecord } from "../../providers/lenient-json.js";
import {
  jsonArgsAt,
  kwargsAt,
  placePositional,
  pythonCallList,
  skipSpace,
  xmlArgsAt,
  type ReadArgs,
} from "./call-args.js";
import { checkArgs, explainsFormat } from "./call-checks.js";
import { bareName, nameBook, type NameBook, type ToolShape } from "./call-names.js";
import { codeRegions, markers, type Marker } from "./call-wrappers.js";
import { callsOf, readValues } from "./json-values.js";
import { readArgs, type WrittenCall } from "./tool-call-shape.js";

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

interface Candidate extends WrittenCall {
  start: number;
  end: number;
}

const MAX_LEAD = 300;
const MAX_LEAD_SENTENCES = 3;
const MAX_SIDE_LINE = 200;

/** End-of-turn tokens that leak into text; they never mean anything to the user. */
const END_TOKENS =
  /<\|(?:eot_id|eom_id|im_end|end|endoftext|return|end_of_text)\|>|<\/s>|<end_of_turn>|<[｜|]end▁of▁sentence[｜|]>/g;

export function recoverToolCalls(text: string, tools: readonly (string | ToolShape)[]): Recovery {
  const book = nameBook(tools);
  // A leading <think> block (models whose template does not split thinking) is kept as
  // is and not searched: a model thinking about a call has not made it.
  const think = /^\s*<think>[\s\S]*?<\/think>\s*/.exec(text)?.[0] ?? "";
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

interface Read {
  found: Candidate[];
  cuts: { start: number; end: number }[];
}

/** Calls behind markers, in order. */
function readMarkup(text: string, marks: Marker[], book: NameBook): Read & { examples: boolean } {
  const at = new Map(marks.map((m) => [m.start, m]));
  const found: Candidate[] = [];
  const cuts: { start: number; end: number }[] = [];
  let examples = false;
  let pos = 0;
  for (const m of marks) {
    if (m.start < pos) continue;
    cuts.push(m);
    pos = m.end;
    if (m.close) continue;
    const read = m.name !== undefined ? argsFor(text, m.end, m.name, at, book) : callsAt(text, m.end, at, book);
    if (!read) continue;
    // The chain of markers and filler right before this one belongs to the call it opens.
    const start = chainStart(text, m.start, cuts);
    if (explainsFormat(text.slice(0, start), text.slice(read.end))) {
      examples = true;
      continue;
    }
    found.push(...read.calls.map((c) => ({ ...c, start: m.start, end: read.end })));
    cuts.push({ start: m.start, end: read.end });
    pos = read.end;
  }
  return { found, cuts, examples };
}

interface Calls {
  calls: WrittenCall[];
  end: number;
}

/** The calls right after a marker that names none: JSON, `<name>…</name>`, `name …`, pythonic. */
function callsAt(text: string, from: number, at: Map<number, Marker>, book: NameBook): Calls | undefined {
  const open = fenceOpen(text, skipSpace(text, from));
  const i = skipSpace(text, open.end);
  if (at.has(i)) return undefined;
  const ch = text[i];
  if (ch === "{" || ch === "[") {
    const run = readValues(text, i);
    const calls = run ? callsOf(run.values, (n) => book.resolve(n) !== undefined) : undefined;
    if (calls && run) return { calls, end: fenceClose(text, run.end, open.fenced) };
  }
  // The JSON call shape in XML: GLM-4's <name>/<arguments>, Claude 2's <tool_name>/<parameters>.
  const tagged =
    /^<(name|tool_name|function_name)>\s*([^<]+?)\s*<\/\1>\s*<(arguments|parameters|args|input)>([\s\S]*?)<\/\3>/.exec(
      text.slice(i),
    );
  if (tagged) {
    const props = propsOf(book.resolve(tagged[2]!)?.parameters);
    const args = readArgs(tagged[4]!.trim()) ?? xmlArgsAt(tagged[4]!, 0, props)?.args;
    return args ? { calls: [{ name: tagged[2]!, args }], end: i + tagged[0].length } : undefined;
  }
  if (ch === "[") return pythonic(text, i + 1, bracketEnd(text, i), open.fenced);
  const id = /^[A-Za-z_][\w.:-]*/.exec(text.slice(i))?.[0]?.replace(/[:.]$/, "");
  if (!id) return undefined;
  if (text[i + id.length] === "(") return pythonic(text, i, nextMarker(text, i, at), open.fenced);
  const read = argsFor(text, i + id.length, id, at, book);
  return read ? { ...read, end: fenceClose(text, read.end, open.fenced) } : undefined;
}

/** `name(k=v)` calls, comma- or line-separated, from `start` to `end`. */
function pythonic(text: string, start: number, end: number | undefined, fenced: boolean): Calls | undefined {
  if (end === undefined) return undefined;
  const inner = text.slice(start, text[end - 1] === "]" && text[start - 1] === "[" ? end - 1 : end);
  const calls = pythonCallList(inner.trim());
  return calls ? { calls, end: fenceClose(text, end, fenced) } : undefined;
}

/**
 * The arguments of a call named `name` from `from` on. Separator markers (`[ARGS]`,
 * `<|tool_call_argument_begin|>`, `<｜tool▁sep｜>`, `Action Input:`), an index (`:0`), a fence
 * opener and a word or two of format (`json`, `commentary json`) may stand between; a word that
 * is one of our tools replaces a name that is not (DeepSeek's `function<｜tool▁sep｜>read_file`).
 */
function argsFor(
  text: string,
  from: number,
  first: string,
  at: Map<number, Marker>,
  book: NameBook,
): Calls | undefined {
  let name = first;
  let i = from;
  let fenced = false;
  for (let step = 0; step < 8; step++) {
    i = skipSpace(text, i);
    const m = at.get(i);
    if (m) {
      // An empty call: `<invoke name="list_files"></invoke>`, `<tool_call>list_files</tool_call>`.
      if (m.close) return book.resolve(name) ? { calls: [{ name, args: {} }], end: i } : undefined;
      if (m.name !== undefined) return undefined;
      i = m.end;
      continue;
    }
    const open = fenceOpen(text, i);
    if (open.fenced) {
      fenced = true;
      i = open.end;
      continue;
    }
    const index = /^:\d+/.exec(text.slice(i, i + 12));
    if (index) {
      i += index[0].length;
      continue;
    }
    const word = /^([A-Za-z_][\w.:-]*)(?:[ \t]+[A-Za-z_][\w-]*)?[ \t]*(?=\n|<|\[|$)/.exec(text.slice(i, i + 80));
    if (word && (at.has(i + word[0].length) || text[i + word[0].length] === "\n")) {
      const known = book.resolve(word[1]!) !== undefined;
      if (known && book.resolve(name)) return undefined;
      if (known) name = word[1]!;
      i += word[0].length;
      continue;
    }
    break;
  }
  const props = propsOf(book.resolve(name)?.parameters);
  // ChatGLM3 writes the name, then ```python tool_call(k=v)```: the inner call's name is a form word.
  const form = book.resolve(name) ? /^[A-Za-z_]\w*(?=\()/.exec(text.slice(i, i + 40))?.[0] : undefined;
  if (form && !book.resolve(form)) i += form.length;
  const read: ReadArgs | undefined = jsonArgsAt(text, i) ?? kwargsAt(text, i) ?? xmlArgsAt(text, i, props);
  if (!read) return undefined;
  const end = fenceClose(text, read.end, fenced);
  // A role or channel word before a whole call (`<|im_start|>assistant {"name": …}`): the call counts.
  const inner = book.resolve(name) ? undefined : callsOf([read.args], (n) => book.resolve(n) !== undefined);
  return { calls: inner ?? [{ name, args: read.args }], end };
}

function propsOf(schema: Record<string, unknown> | undefined): string[] | undefined {
  return schema && isRecord(schema.properties) ? Object.keys(schema.properties) : undefined;
}

/** Where the markers and filler words right before `start` begin (they are cut with the call). */
function chainStart(text: string, start: number, cuts: { start: number; end: number }[]): number {
  let s = start;
  for (let k = cuts.length - 1; k >= 0; k--) {
    const c = cuts[k]!;
    if (c.end > s) continue;
    if (!/^[\s\w-]{0,40}$/.test(text.slice(c.end, s)) || text.slice(c.end, s).trim().split(/\s+/).length > 2) break;
    s = c.start;
  }
  return s;
}

function fenceOpen(text: string, i: number): { fenced: boolean; end: number } {
  const m = /^```[\w-]*[ \t]*\n/.exec(text.slice(i, i + 40));
  return m ? { fenced: true, end: i + m[0].length } : { fenced: false, end: i };
}

function fenceClose(text: string, end: number, fenced: boolean): number {
  const m = fenced ? /^\s*```/.exec(text.slice(end)) : undefined;
  return m ? end + m[0].length : end;
}

function nextMarker(text: string, from: number, at: Map<number, Marker>): number {
  const starts = [...at.keys()].filter((s) => s > from);
  return starts.length > 0 ? Math.min(...starts) : text.length;
}

function bracketEnd(text: string, open: number): number | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch) && --depth === 0) return i + 1;
  }
  return undefined;
}

/**
 * A reply that is a bare call: one to three short sentences, the call on its own lines (a JSON
 * object or list, fenced or not; pythonic calls; a tool's name then its JSON arguments), and at
 * most one short line after it.
 */
function bare(text: string, book: NameBook): Read | undefined {
  const lines = text.split("\n");
  let offset = 0;
  for (let b = 0; b < lines.length && offset <= MAX_LEAD + 1; b++) {
    const line = lines[b]!;
    // A short label may stand before the call on its line (`Tool call: read_file(…)`), not an example's.
    const label = /^\s*[A-Z][A-Za-z ]{0,24}:[ \t]+/.exec(line)?.[0] ?? "";
    const skip = label !== "" && !/example|format|syntax|usage|e\.g/i.test(label) ? label.length : 0;
    const start = offset + Math.max(skip, line.length - line.trimStart().length);
    offset += line.length + 1;
    if (!/^(?:[{[]|```|[A-Za-z_][\w.:-]*\s*[({]|[A-Za-z_][\w.:-]*\s*$)/.test(text.slice(start, offset - 1))) continue;
    const lead = text.slice(0, start);
    if (!shortLead(lead)) return undefined;
    const read = bareBody(text, start, book);
    if (!read) continue;
    const trail = text.slice(read.end).trim();
    if (trail.includes("\n") || trail.length > MAX_SIDE_LINE) return undefined;
    if (explainsFormat(lead, trail)) return undefined;
    return { found: read.calls.map((c) => ({ ...c, start, end: read.end })), cuts: [{ start, end: read.end }] };
  }
  return undefined;
}

function shortLead(lead: string): boolean {
  const t = lead.trim();
  if (t === "") return true;
  if (t.length > MAX_LEAD || t.split("\n").length > MAX_LEAD_SENTENCES || /```|^\s*[-*#>|]/m.test(t)) return false;
  return (t.match(/[.!?:](?:\s|$)/g)?.length ?? 1) <= MAX_LEAD_SENTENCES;
}

function bareBody(text: string, start: number, book: NameBook): Calls | undefined {
  const none = new Map<number, Marker>();
  const calls: WrittenCall[] = [];
  let i = start;
  // Consecutive fences, each holding calls and nothing else.
  for (;;) {
    const fence = /^```([\w-]*)[ \t]*\n([\s\S]*?)\n?[ \t]*```/.exec(text.slice(i));
    if (!fence) break;
    const inner = fence[2]!.trim();
    const read = callsAt(inner, 0, none, book);
    if (!read || inner.slice(read.end).trim() !== "") return undefined;
    calls.push(...read.calls);
    i = skipSpace(text, i + fence[0].length);
  }
  if (calls.length > 0) return { calls, end: i };
  // A run of JSON values, a pythonic list, `name(k=v)` lines, or a tool's name then its arguments.
  if (/^[A-Za-z_][\w.]*\(/.test(text.slice(start))) {
    let end = start;
    while (end < text.length && /^[A-Za-z_][\w.]*\(/.test(text.slice(skipSpace(text, end)))) {
      const from = skipSpace(text, end);
      end = text.indexOf("\n", from) < 0 ? text.length : text.indexOf("\n", from);
    }
    const lines = pythonCallList(text.slice(start, end));
    return lines && lines.every((c) => book.resolve(c.name)) ? { calls: lines, end } : undefined;
  }
  const read = callsAt(text, start, none, book);
  if (!read) return undefined;
  // Bare, a name must be one of ours: `Note {` or `Summary\n{…}` is prose and data.
  const id = /^[A-Za-z_]/.test(text[start] ?? "") ? read.calls[0]?.name : undefined;
  return id === undefined || book.resolve(id) ? read : undefined;
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

/** A reply that is only a fenced block of call markup (maybe after one short line): its lead + inside. */
function unwrapWholeFence(text: string): string {
  const m = /^\s*([^\n]*\n)?[ \t]*```[\w-]*[ \t]*\n([\s\S]*?)\n?[ \t]*```\s*$/.exec(text);
  if (!m || m[2]!.includes("```") || (m[1] ?? "").length > MAX_SIDE_LINE) return text;
  // Plain JSON or pythonic calls in a fence are the bare rule's; markup is read once the fence is off.
  return /^\s*(?:<|\[[A-Z_]|>>>|Action:)/.test(m[2]!) ? `${m[1] ?? ""}${m[2]}` : text;
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
