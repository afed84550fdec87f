// Reading calls out of a reply, part by part: behind markers (call-wrappers.ts) a call is read
// wherever it stands; bare, only when the reply is a lead-in of one to three short sentences, the
// call on its own lines, and at most one short line after it. The names and arguments are read
// here; whether they make a call (a known tool, valid arguments) is text-tool-calls.ts's to judge.
import { isRecord } from "../../providers/lenient-json.js";
import {
  groupEnd,
  jsonArgsAt,
  kwargsAt,
  pythonCallList,
  skipSpace,
  soleStringParam,
  xmlArgsAt,
  type ReadArgs,
} from "./call-args.js";
import { explainsFormat } from "./call-checks.js";
import type { NameBook } from "./call-names.js";
import { endsName, type Marker } from "./call-wrappers.js";
import { callsOf, readValues } from "./json-values.js";
import { readArgs, type WrittenCall } from "./tool-call-shape.js";

/** A call read from the text, and the span it was written in. */
export interface Candidate extends WrittenCall {
  start: number;
  end: number;
}

export interface Read {
  found: Candidate[];
  cuts: { start: number; end: number }[];
}

/** Calls behind markers, in order. */
export function readMarkup(text: string, marks: Marker[], book: NameBook): Read & { examples: boolean } {
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
    const inline = m.name !== undefined && m.args !== undefined ? readArgs(m.args) : undefined;
    const read = inline
      ? { calls: [{ name: m.name!, args: inline }], end: m.end }
      : m.name !== undefined
        ? argsFor(text, m.end, m.name, at, book)
        : callsAt(text, m.end, at, book, m.callish);
    // A wrapper cut off by the end of the reply still holds its call; a call's own tag left open
    // may have more parameters to come (nanocoder's tests read none): it is no call.
    if (!read || (m.ownTag && !closedAt(text, read.end, m.name!))) continue;
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

export interface Calls {
  calls: WrittenCall[];
  end: number;
}

/**
 * The calls right after a marker that names none: JSON, `<name>…</name>`, `name …`, pythonic.
 * `wrapped`: the marker says tool or call, so a tool's name and plain text up to its closer is a call.
 */
export function callsAt(
  text: string,
  from: number,
  at: Map<number, Marker>,
  book: NameBook,
  wrapped = false,
): Calls | undefined {
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
    /^<((?:tool|function)[_-]?name|name)>\s*([^<]+?)\s*<\/\1>\s*<(arguments|parameters|args|input)>([\s\S]*?)<\/\3>/.exec(
      text.slice(i),
    );
  if (tagged) {
    const props = propsOf(book.resolve(tagged[2]!)?.parameters);
    const args = readArgs(tagged[4]!.trim()) ?? xmlArgsAt(tagged[4]!, 0, props)?.args;
    return args ? { calls: [{ name: tagged[2]!, args }], end: i + tagged[0].length } : undefined;
  }
  // A list the reply ended in (vLLM#30722: Llama 4 left off the `]`) ends at the next marker or the end.
  // The name in its tag, then XML parameters; the name's closer may be wrong (signalnine/q27#24:
  // Qwen3-Coder wrote `<name>task\n</parameter>\n<parameter=…>`). Only a tool's name counts.
  const named = /^<((?:tool|function)[_-]?name|name)>\s*([A-Za-z_][\w.-]*)\s*(?:<\/[\w-]+>)?/.exec(text.slice(i));
  const tool = named ? book.resolve(named[2]!) : undefined;
  const params = named && tool ? xmlArgsAt(text, i + named[0].length, propsOf(tool.parameters)) : undefined;
  if (params) return { calls: [{ name: named![2]!, args: params.args }], end: params.end };
  if (ch === "[") return pythonic(text, i + 1, groupEnd(text, i) ?? nextMarker(text, i, at), open.fenced);
  const id = nameAt(text, i);
  if (!id) return undefined;
  if (text[i + id.length] === "(") return pythonic(text, i, nextMarker(text, i, at), open.fenced);
  const plain = wrapped ? plainUntilCloser(text, i + id.length, at, book.resolve(id)?.parameters) : undefined;
  const read = plain
    ? { calls: [{ name: id, args: plain.args }], end: plain.end }
    : argsFor(text, i + id.length, id, at, book);
  return read ? { ...read, end: fenceClose(text, read.end, open.fenced) } : undefined;
}

/**
 * CWM's `<tool: function>\nterminal ls -la\n</tool>`: inside a call wrapper, the tool's name then
 * plain text on its line, then the wrapper's closer (or the end): the ReAct rule for the value.
 */
function plainUntilCloser(
  text: string,
  from: number,
  at: Map<number, Marker>,
  schema: Record<string, unknown> | undefined,
): ReadArgs | undefined {
  if (!/^[ \t]+\S/.test(text.slice(from, from + 2))) return undefined;
  const read = plainArgAt(text, from, schema);
  if (!read) return undefined;
  const next = skipSpace(text, read.end);
  return next === text.length || at.get(next)?.close ? read : undefined;
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
export function argsFor(
  text: string,
  from: number,
  first: string,
  at: Map<number, Marker>,
  book: NameBook,
): Calls | undefined {
  let name = first;
  let i = from;
  let fenced = false;
  let labelled = false;
  for (let step = 0; step < 8; step++) {
    i = skipSpace(text, i);
    // Arguments that begin with a marker or a label (Solar Open 2's <|tool_arg:start|>, Continue's BEGIN_ARG:).
    if (xmlArgsAt(text, i, propsOf(book.resolve(name)?.parameters))) break;
    const m = at.get(i);
    if (m) {
      // The end of the name part (PLaMo's <|plamo:end_tool_name:plamo|>): the arguments follow.
      if (m.close && endsName(text.slice(m.start, m.end))) {
        i = m.end;
        continue;
      }
      // An empty call: `<invoke name="list_files"></invoke>`, `<tool_call>list_files</tool_call>`.
      if (m.close) return book.resolve(name) ? { calls: [{ name, args: {} }], end: i } : undefined;
      if (m.name !== undefined) return undefined;
      if (m.argsLabel) labelled = true;
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
  const read: ReadArgs | undefined =
    jsonArgsAt(text, i) ??
    kwargsAt(text, i) ??
    xmlArgsAt(text, i, props) ??
    (labelled ? plainArgAt(text, i, book.resolve(name)?.parameters) : undefined);
  if (!read) return undefined;
  const end = fenceClose(text, read.end, fenced);
  // A role or channel word before a whole call (`<|im_start|>assistant {"name": …}`): the call counts.
  // So does a whole call after its own name (Inkling's `name<|content_invoke_tool_json|>{"name": name, "args": …}`).
  const tool = book.resolve(name);
  const whole = callsOf([read.args], (n) => book.resolve(n) !== undefined);
  const same = whole?.length === 1 && book.resolve(whole[0]!.name) === tool;
  return { calls: (!tool || same) && whole ? whole : [{ name, args: read.args }], end };
}

/**
 * LangChain's ReAct writes the input as plain text (`Action Input: src/a.ts`, `Action Input: ls -la`):
 * after an arguments label, the rest of the line is the value of a tool's one required string
 * parameter. A tool with more than one, or none, needs named arguments.
 */
function plainArgAt(text: string, i: number, schema: Record<string, unknown> | undefined): ReadArgs | undefined {
  const key = soleStringParam(schema);
  if (key === undefined) return undefined;
  const line = /^[^\n]*/.exec(text.slice(i))![0];
  const value = line.trim().replace(/^(["'`])(.*)\1$/, "$2");
  if (value === "" || /^[{[(<]/.test(value)) return undefined;
  return { args: { [key]: value }, end: i + line.length };
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

/** The name a call would start with at `at` (`read_file`, `functions.read_file`), without a trailing `:` or `.`. */
export function nameAt(text: string, at: number): string | undefined {
  return /^[A-Za-z_][\w.:-]*/.exec(text.slice(at))?.[0].replace(/[:.]$/, "");
}

function closedAt(text: string, at: number, tag: string): boolean {
  const close = /^\s*<\/([\w.-]+)\s*>/.exec(text.slice(at, at + tag.length + 40));
  return close !== null && close[1] === tag;
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
