// The third part of a call written as text: the wrapper, which is not prose. The lexer finds:
// - special-token-like markers: `<|…|>`, `<｜…｜>` (with or without `▁`), half-piped `<|tool_call>`
//   and `<tool_call|>`, and `[UPPER_CASE]` tokens that say tool, call or args;
// - tags whose name says tool, call, function, invoke or action, in any casing and with any prefix
//   (`<seed:tool_call>`, `<minimax:tool_call>`, `<｜DSML｜invoke name="x">`), and tags named after
//   one of the run's tools (Cline's `<read_file>`);
// - role or recipient headers (`to=functions.x`), Functionary's `>>>x`, ReAct's `Action:` lines,
//   Firefunction's `functools[`, and fences whose language says tool or call (```tool_code).
// A marker that carries a name (`<function=x>`, `<invoke name="x">`, `to=functions.x`) hands it
// to the arguments that follow. Markers inside code (inline or a fence that is only part of the
// reply) are an example, not a call, and are not returned.
import type { NameBook } from "./call-names.js";

export interface Marker {
  start: number;
  end: number;
  /** A name the marker carries itself. */
  name?: string;
  /** Arguments it carries itself, as written (`<tool_call name="x" arguments='{…}'/>`). */
  args?: string;
  /** A label line that introduces the arguments (`Action Input:`, `✿ARGS✿:`). */
  argsLabel?: true;
  /** Ends a section (`</tool_call>`, `<|tool_call_end|>`, `Observation:`). */
  close: boolean;
  /** Says tool, call, function … (not only a format token such as `<|channel|>`). */
  callish: boolean;
  /** A tag named after the tool (Cline's `<read_file>`): the call itself, so it ends at its own closer. */
  ownTag?: true;
}

const CALL_WORDS: ReadonlySet<string> = new Set([
  "tool",
  "tools",
  "toolcall",
  "toolcalls",
  "call",
  "calls",
  "function",
  "functions",
  "functioncall",
  "functioncalls",
  "invoke",
  "action",
  "actions",
  "plugin",
  "python",
]);
/** A tag may also just say JSON (`<JSON>{…}</JSON>`, seen in Ollama reports). */
export const TAG_WORDS: ReadonlySet<string> = new Set([...CALL_WORDS, "json"]);
/** A fence's language: ```tool_code is a call, ```python and ```js are code. */
export const FENCE_WORDS: ReadonlySet<string> = new Set([
  "tool",
  "tools",
  "toolcall",
  "toolcalls",
  "call",
  "calls",
  "functioncall",
  "invoke",
  "action",
]);
/** Bracket tokens say it shorter: Mistral's [ARGS], [CALL_ID]. */
export const BRACKET_WORDS: ReadonlySet<string> = new Set([...CALL_WORDS, "args", "arg", "id"]);

/** The words of a token's name: `tool▁call▁begin`, `minimax:tool_call`, `TOOLCALL`, `startFunctionCall`. */
function words(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function callish(name: string, vocabulary: ReadonlySet<string> = CALL_WORDS): boolean {
  return words(name).some((w) => vocabulary.has(w));
}

function closes(inner: string): boolean {
  return /^\//.test(inner) || words(inner).some((w) => w === "end");
}

/** A closer of the name part only (`<|plamo:end_tool_name:plamo|>`, `</function-name>`): the call goes on. */
export function endsName(token: string): boolean {
  return closes(token.replace(/^<[|｜]?|[|｜]?>$/g, "")) && words(token).includes("name");
}

const SPECIAL = /<[|｜]([^<>|｜\n]{1,60})[|｜]>|<\|([A-Za-z_][\w.:-]{0,40})>|<([A-Za-z_][\w.:-]{0,40})\|>/g;
/** `<<function>>` (Gorilla) counts as `<function>`; `<tool: function>` (CWM) as `<tool>`. */
const TAG =
  /<<?(\/?)((?:[|｜][A-Za-z]+[|｜])?[A-Za-z_][\w:.-]*)(?:[ \t]*:[ \t]*[A-Za-z_][\w.-]*)?((?:\s+[\w:-]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']+))*)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s>"']+))?\s*\/?>>?/g;
const BRACKET = /\[(\/?)([A-Z][A-Z0-9_]{1,40})\]/g;
const RECIPIENT = /(?<![\w.])to=([\w.:-]+)/g;
/** Functionary's `>>>name` line; `>>> name(…)` is Python's prompt with a statement on it. */
const PROMPT_LINE = /(?<=^|\n)[ \t]*>>>[ \t]*([A-Za-z_][\w.-]*)(?![\w.-]*[ \t]*\()/g;
/**
 * A line that opens with a label: one to three words, maybe decorated (`✿FUNCTION✿:`, `**Tool**:`,
 * RWKV's `**Tool Call:**`),
 * then a colon, and maybe a name after it on the same line. ReAct writes `Action:` and `Action
 * Input:`, Qwen-Agent `✿FUNCTION✿:` and `✿ARGS✿:`, NexusRaven `Call:`; the words say which part it is.
 */
export const LABEL_LINE =
  /(?<=^|\n)[ \t]*(?:[^\w\s:]{1,3}[ \t]*)?([A-Za-z][A-Za-z _]{0,24}?)(?:[ \t]*[^\w\s:]{1,3})?[ \t]*:(?!\/)(?:[*_]{1,3})?[ \t]*(?:([A-Za-z_][\w.-]*)(?=[ \t]*(?:\n|$|\()))?/g;
/** A label that introduces the arguments (`Action Input:`, `✿ARGS✿:`). */
const ARG_LABEL_WORDS: ReadonlySet<string> = new Set(["input", "args", "arguments", "parameters", "params"]);
/** A label after which the tool's result stands: the call before it has ended. */
const RESULT_LABEL_WORDS: ReadonlySet<string> = new Set(["observation", "result"]);

/** What a label line's label introduces: a call's name, its arguments, its result; undefined: prose. */
export function labelPart(label: string): "name" | "args" | "result" | undefined {
  const w = words(label);
  if (w.length === 0 || w.length > 3) return undefined;
  if (w.length === 1 && RESULT_LABEL_WORDS.has(w[0]!)) return "result";
  if (ARG_LABEL_WORDS.has(w.at(-1)!)) return "args";
  return w.some((x) => CALL_WORDS.has(x)) ? "name" : undefined;
}
/**
 * A line so far that may still grow into a call's label (`**T`, `Tool Ca`, `✿FUNC`): up to three
 * words, each a word that says call, the last maybe only its start. The stream guard holds it.
 */
export function labelOpening(line: string): boolean {
  const m = /^[ \t]*(?:[^\w\s:]{1,3}[ \t]*)?([A-Za-z][A-Za-z _]{0,24})$/.exec(line);
  const parts = m
    ? m[1]!
        .replace(/([a-z])([A-Z])/g, "$1 $2")
        .toLowerCase()
        .split(/[ _]+/)
    : [];
  if (parts.length === 0 || parts.length > 3) return false;
  const last = parts.pop()!;
  return parts.every((w) => CALL_WORDS.has(w)) && [...CALL_WORDS].some((w) => w.startsWith(last));
}

const FUNCTOOLS = /functools(?=\s*\[)/g;
const TOOL_FENCE = /```([\w-]+)[ \t]*\n|```/g;

/** Every marker of the text outside code, in order, overlapping ones dropped. */
export function markers(text: string, book: NameBook): Marker[] {
  const out: Marker[] = [];
  for (const m of text.matchAll(SPECIAL)) {
    const inner = m[1] ?? m[2] ?? m[3]!;
    // `<tool_call|>` is the closer of `<|tool_call>`.
    out.push({
      start: m.index,
      end: m.index + m[0].length,
      close: closes(inner) || m[3] !== undefined,
      callish: callish(inner),
    });
  }
  for (const m of text.matchAll(TAG)) {
    const [, slash, tag, attrs, value] = m;
    const own = book.resolve(tag!) !== undefined && !tag!.includes(":");
    // `<tool_name>` and `<function_name>` hold a name inside a call; they do not open one.
    if (!own && (!callish(tag!, TAG_WORDS) || words(tag!).at(-1) === "name")) continue;
    const named = /\bname\s*=\s*["']?([^"'\s>]+)/.exec(attrs ?? "")?.[1] ?? value?.replace(/^["']|["']$/g, "");
    const name = slash ? undefined : own ? tag : named;
    const inline = /\b(?:arguments|args|parameters|params|input)\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(attrs ?? "");
    const args = inline ? (inline[1] ?? inline[2])!.replace(/&quot;/g, '"') : undefined;
    const tagged = own && !slash ? { ownTag: true as const } : {};
    out.push({
      start: m.index,
      end: m.index + m[0].length,
      name,
      args,
      close: slash === "/",
      callish: true,
      ...tagged,
    });
  }
  for (const m of text.matchAll(BRACKET)) {
    if (!callish(m[2]!, BRACKET_WORDS)) continue;
    out.push({ start: m.index, end: m.index + m[0].length, close: m[1] === "/" || closes(m[2]!), callish: true });
  }
  for (const m of text.matchAll(RECIPIENT)) {
    if (!/^(?:functions|tools|default_api)\./.test(m[1]!) && !book.resolve(m[1]!)) continue;
    out.push({ start: m.index, end: m.index + m[0].length, name: m[1], close: false, callish: true });
  }
  for (const m of text.matchAll(PROMPT_LINE)) {
    // `>>> x` is also a Python prompt: only a known name makes it a marker, and one that reads as
    // no call is a Python prompt after all: nothing to ask about.
    if (m[1] === "all" || !book.resolve(m[1]!)) continue;
    out.push({ start: m.index, end: m.index + m[0].length, name: m[1], close: false, callish: false });
  }
  for (const m of text.matchAll(LABEL_LINE)) {
    const part = labelPart(m[1]!);
    if (part === undefined) continue;
    const end = m.index + m[0].length;
    // The result and arguments labels end before a word that follows them on the line.
    if (part !== "name") {
      const label = { start: m.index, end: end - (m[2]?.length ?? 0), close: part === "result", callish: false };
      out.push(part === "args" ? { ...label, argsLabel: true } : label);
      continue;
    }
    // Prose uses these words too (`Action: none needed`): only a label naming a tool asks for a retry.
    const named = m[2] !== undefined && book.resolve(m[2]) !== undefined;
    out.push({ start: m.index, end, name: named ? m[2] : undefined, close: false, callish: named });
  }
  for (const m of text.matchAll(FUNCTOOLS))
    out.push({ start: m.index, end: m.index + m[0].length, close: false, callish: true });
  const code = codeRegions(text);
  out.push(...toolFences(text));
  const kept = out
    .filter((m) => !code.some(([s, e]) => m.start >= s && m.start < e))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const result: Marker[] = [];
  for (const m of kept) if (result.length === 0 || m.start >= result[result.length - 1]!.end) result.push(m);
  return result;
}

/** ```tool_code and kin: the opening and closing fence lines are markers. */
function toolFences(text: string): Marker[] {
  const out: Marker[] = [];
  let open: RegExpMatchArray | undefined;
  for (const m of text.matchAll(TOOL_FENCE)) {
    if (open) {
      if (m[1] === undefined) {
        if (callish(open[1] ?? "", FENCE_WORDS))
          out.push({ start: m.index, end: m.index + 3, close: true, callish: true });
        open = undefined;
      }
      continue;
    }
    open = m;
    if (m[1] !== undefined && callish(m[1], FENCE_WORDS))
      out.push({ start: m.index, end: m.index + m[0].length, close: false, callish: true });
  }
  return out;
}

/**
 * [start, end) of fenced blocks, inline code spans and markup quoted as a string on one line
 * (`'<tool_call>…</tool_call>'`: a value in a test or a sentence); a fence whose language says
 * tool or call is no code.
 */
export function codeRegions(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of text.matchAll(/```([\w-]*)[\s\S]*?(?:```|$)|`[^`\n]+`|'<[^'\n]*>'|"<[^"\n]*>"/g)) {
    if (!callish(m[1] ?? "", FENCE_WORDS)) out.push([m.index, m.index + m[0].length]);
  }
  return out;
}
