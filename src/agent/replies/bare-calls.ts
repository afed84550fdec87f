// A reply that is a bare call, with no marker around it: a lead-in of one to three short
// sentences, the call on its own lines, and at most one short line after it. Bare, the call may be
// a JSON object or list (fenced or not), pythonic calls, a tool's name then its arguments (the name
// maybe set off as a heading or in emphasis), or a YAML-ish block in the JSON call's shape.
import { pythonCallList, skipSpace } from "./call-args.js";
import { explainedAfter, explainsFormat } from "./call-checks.js";
import type { NameBook } from "./call-names.js";
import { argsFor, callsAt, nameAt, type Calls, type Read } from "./call-reader.js";
import { callish, type Marker } from "./call-wrappers.js";
import { callsOf } from "./json-values.js";
import type { WrittenCall } from "./tool-call-shape.js";
import { readYamlBlock } from "./yaml-values.js";

const MAX_LEAD = 300;
const MAX_LEAD_SENTENCES = 3;
/** The line after a bare call: short, or the call is inside prose. */
const MAX_SIDE_LINE = 200;
/** How many lead-in-and-call pairs one reply may hold. */
const MAX_BARE_CALLS = 8;
/** A line that is only a tool's name set off in Markdown: `### read_file`, `**read_file**`, `*read_file()*`. */
const SET_OFF_NAME = /^\s*(?:#{1,6}[ \t]+|[*_]{1,3}|`(?!`))(?=[A-Za-z_][\w.-]*(?:\(\))?[*_`]{0,3}:?[ \t]*$)/;
/** What a bare call's first line may start with. */
const CALL_START =
  /^(?:[{[]|```|<(?:(?:tool|function)[_-]?)?name>|[A-Za-z_][\w.:-]*\s*[({]|[A-Za-z_][\w.:-]*(?:\(\))?[*_`]{0,3}\s*$|[A-Za-z_][\w-]*:)/;

/**
 * A fence in a programming language holds code, not a call (```tool_code, ```json and a bare fence
 * are Gemma's, Command-R's and others' call markers): ChatGLM3's ```python tool_call(…) is read,
 * but a tool-named function called inside an expression, `print(read_file("x"))`, is code.
 */
const CODE_FENCE =
  /^(?:python[23]?|py|ipython|javascript|js|jsx|mjs|typescript|ts|tsx|sh|bash|zsh|shell|console|fish|ps1|powershell|ruby|rb|go|rust|rs|java|kotlin|kt|c|cpp|c\+\+|cs|csharp|php|perl|lua|r|swift|scala)$/i;

/**
 * Code whose first statement is a call by a tool's own name (`read_file(…)`), or one through
 * Gemini's call namespace, which no program uses (`print(default_api.read_file(…))`).
 */
function statementCall(code: string, book: NameBook): boolean {
  const m = /^\[?\s*(?:print\(\s*(?=default_api\.))?(default_api\.)?([A-Za-z_][\w.]*?)(?:\.call)?\s*\(/.exec(code);
  return m !== null && book.resolve(m[2]!) !== undefined;
}

/**
 * A reply that is a bare call: one to three short sentences, the call on its own lines (a JSON
 * object or list, fenced or not; pythonic calls; a tool's name then its JSON arguments), and at
 * most one short line after it — or, instead of that line, another such lead-in and call
 * (nanocoder's "I want to read this file:\n{…}\n\nAnd then create a backup:\n{…}").
 */
export function bare(text: string, book: NameBook, depth = 0): Read | undefined {
  const lines = text.split("\n");
  let offset = 0;
  for (let b = 0; b < lines.length && offset <= MAX_LEAD + 1; b++) {
    const line = lines[b]!;
    // A short label may stand before the call on its line (`Tool call: read_file(…)`, LM Studio's
    // `assistant: {…}`), not an example's.
    const label = /^\s*[A-Za-z][A-Za-z ]{0,24}:[ \t]+/.exec(line)?.[0] ?? "";
    const labelled = label !== "" && !/example|format|syntax|usage|e\.g/i.test(label);
    const setOff = labelled ? 0 : (SET_OFF_NAME.exec(line)?.[0].length ?? 0);
    const skip = labelled ? label.length : setOff;
    const start = offset + Math.max(skip, line.length - line.trimStart().length);
    // The marks that set a name off belong to the call, not to its lead-in.
    const lineStart = offset;
    const lead = text.slice(0, setOff > 0 ? lineStart : start);
    offset += line.length + 1;
    if (!CALL_START.test(text.slice(start, offset - 1))) continue;
    if (!shortLead(lead)) return undefined;
    const body = bareBody(text, start, book);
    if (!body) continue;
    // A wrapper's closer whose opener the template wrote (`{…}</tool_call>`) goes with the call.
    const closer = /^[ \t]*<\/([\w:.-]+)>/.exec(text.slice(body.end));
    const read = closer && callish(closer[1]!) ? { ...body, end: body.end + closer[0].length } : body;
    const trail = text.slice(read.end).trim();
    const long = trail.includes("\n") || trail.length > MAX_SIDE_LINE;
    const next = long && depth < MAX_BARE_CALLS ? bare(text.slice(read.end), book, depth + 1) : undefined;
    if ((long && !next) || explainsFormat(lead, trail) || (!next && explainedAfter(trail))) return undefined;
    const from = setOff > 0 ? lineStart : start;
    const shift = (span: { start: number; end: number }) => ({
      start: span.start + read.end,
      end: span.end + read.end,
    });
    return {
      found: [
        ...read.calls.map((c) => ({ ...c, start: from, end: read.end })),
        ...(next?.found.map((c) => ({ ...c, ...shift(c) })) ?? []),
      ],
      cuts: [{ start: from, end: read.end }, ...(next?.cuts.map(shift) ?? [])],
    };
  }
  return undefined;
}

/** One to three short sentences, no code, no list: a lead-in before a call. */
export function shortLead(lead: string): boolean {
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
    if (CODE_FENCE.test(fence[1]!) && !statementCall(inner, book)) return undefined;
    const read = callsAt(inner, 0, none, book) ?? yamlCalls(inner, 0, book);
    if (!read || inner.slice(read.end).trim() !== "") return undefined;
    calls.push(...read.calls);
    i = skipSpace(text, i + fence[0].length);
  }
  if (calls.length > 0) return { calls, end: i };
  const named = setOffName(text, start, book);
  if (named) return named;
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
  if (!read) {
    const yaml = yamlCalls(text, start, book);
    return yaml && yaml.calls.every((c) => book.resolve(c.name)) ? yaml : undefined;
  }
  // Bare, a name must be one of ours, as written: `Note {`, `Summary\n{…}` and `Given {…},` are prose and data.
  const id = nameAt(text, start);
  return id === undefined || book.resolve(id) ? read : undefined;
}

/** A tool's name closed by emphasis (`**read_file**`, `*read_file()*`), its arguments on the lines below. */
function setOffName(text: string, start: number, book: NameBook): Calls | undefined {
  const m = /^([A-Za-z_][\w.-]*)((?:\(\))?[*_`]{1,3}:?)[ \t]*(?=\n)/.exec(text.slice(start, start + 80));
  if (!m || !book.resolve(m[1]!)) return undefined;
  return argsFor(text, start + m[0].length, m[1]!, new Map(), book);
}

/** A YAML-ish block holding a call in the JSON call's shape (`name:`/`arguments:`, or wrapped in `command:`). */
function yamlCalls(text: string, start: number, book: NameBook): Calls | undefined {
  const block = readYamlBlock(text, start);
  const calls = block ? callsOf([block.value], (n) => book.resolve(n) !== undefined) : undefined;
  return calls && block ? { calls, end: block.end } : undefined;
}
