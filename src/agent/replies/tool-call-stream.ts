// While a reply streams, text that may be a tool call written into the text is held back from
// the screen: recovery (text-tool-calls.ts) runs only once the reply is complete, and raw call
// markup must not flash by in the meantime. What was held and turned out not to be a call is
// released at the end.
//
// Besides the fixed openers below, any wrapper the recogniser reads (call-wrappers.ts) is held:
// a special token `<|…` or `<｜…`, a tag or `[TOKEN]` whose name says tool or call, a fence whose
// language does, and a tag named after one of the run's tools.
import {
  BRACKET_WORDS,
  callish,
  FENCE_WORDS,
  LABEL_LINE,
  labelOpening,
  labelPart,
  TAG_WORDS,
} from "./call-wrappers.js";

/** Openers of call markup (tool-call-markup.ts's scanners): a call wherever they stand. */
export const MARKERS = [
  "<tool_call>",
  "<tool_calls>",
  "<function_call>",
  "<tools>",
  "<function=",
  "<|python_tag|>",
  "<|tool_call|>",
  "<|tool_calls|>",
  "[TOOL_CALLS]",
  "functools[",
  "<｜tool▁call",
  "<|tool▁call",
  "<|channel|>",
  "to=functions.",
  "```tool_code",
  "<toolcall>",
  "<tool>",
  "<JSON>",
  "<seed:tool_call>",
  "<|tool_call_start|>",
  "<function_calls>",
  "<|START_ACTION|>",
  "<|action_start|>",
  "<start_function_call>",
  "<|tool_call>",
  "*** Begin Patch",
];

/** Functionary's `>>>name` counts at a line's start only (a reply that starts with it: bareStart). */
const LINE_MARKER = "\n>>>";

/** A bare call counts only after a lead-in of up to three short lines (text-tool-calls.ts). */
const MAX_LEAD = 300;
const LEAD_LINES = 4;
/** Tags, bracket tokens and fences found in the window: their names decide. */
const GENERIC =
  /<[|｜]|<\/?(?:[|｜][A-Za-z]+[|｜])?([A-Za-z_][\w:.-]*)(?=[\s>=/|])|\[\/?([A-Z][A-Z0-9_]{1,40})\]|```([\w-]+)/g;
/** The end of a window that may still grow into a generic marker. */
const PARTIAL = /(?:<<?\/?(?:[|｜][A-Za-z]*[|｜]?)?[\w:.-]*|\[\/?[A-Z][A-Z0-9_]*|```[\w-]*)$/;
/** A line so far that is a label (`Action:`, `✿FUNCTION✿: read_`), its name not complete yet. */
const LABEL_OPENING =
  /^[ \t]*(?:[^\w\s:]{1,3}[ \t]*)?([A-Za-z][A-Za-z _]{0,24}?)(?:[ \t]*[^\w\s:]{1,3})?[ \t]*:(?:[*_]{1,3})?[ \t]*[\w.-]*$/;
/**
 * A label line that names no tool but says a call follows (RWKV's `**Tool Call:**`, `Action:`),
 * then the start of a fence or a JSON object on the next line: the call is read from the label on.
 */
const LABEL_THEN_CALL =
  /(?<=^|\n)([ \t]*(?:[^\w\s:]{1,3}[ \t]*)?([A-Za-z][A-Za-z _]{0,24}?)(?:[ \t]*[^\w\s:]{1,3})?[ \t]*:(?:[*_]{1,3})?[ \t]*\n)[ \t]*(?:```|\{)/g;
/** The same label line, the next line not long enough yet to tell. */
const LABEL_THEN_PARTIAL =
  /(?<=^|\n)[ \t]*(?:[^\w\s:]{1,3}[ \t]*)?([A-Za-z][A-Za-z _]{0,24}?)(?:[ \t]*[^\w\s:]{1,3})?[ \t]*:(?:[*_]{1,3})?[ \t]*\n[ \t]*`{0,2}$/;
/** A line that sets a name off in Markdown (`### read_file`, `**read_file**`, `*read_file()*`). */
const SET_OFF = /^(?:#{1,6}[ \t]+|[*_]{1,3}|`(?!`))/;
const BARE_FENCES = ["```json", "```tool_call", "```tool_code", "```javascript", "```js", "```python", "```"];

type Verdict = "call" | "text" | "undecided";

/** How much of the window's end may still grow into a generic marker. */
function partialGenericLength(window: string): number {
  let tick = window.lastIndexOf("`");
  while (tick > 0 && window[tick - 1] === "`") tick--;
  let longest = 0;
  // Gorilla's `<<function>>`: the first `<` belongs to the tag.
  let lt = window.lastIndexOf("<");
  if (lt > 0 && window[lt - 1] === "<") lt--;
  for (const from of [lt, window.lastIndexOf("["), tick, window.lastIndexOf("\n")]) {
    if (from < 0 || window.length - from > 64) continue;
    longest = Math.max(longest, PARTIAL.exec(window.slice(from))?.[0].length ?? 0);
  }
  // A line that opens with a call's label may still grow into a tool's name.
  const line = window.slice(window.lastIndexOf("\n") + 1);
  const label = LABEL_OPENING.exec(line);
  if ((label && labelPart(label[1]!) === "name") || labelOpening(line)) longest = Math.max(longest, line.length);
  const labelled = LABEL_THEN_PARTIAL.exec(window.slice(-96));
  if (labelled && labelPart(labelled[1]!) === "name") longest = Math.max(longest, labelled[0].length);
  return longest;
}

/** Can this line of the reply start a bare call? Undecided while it is too short to tell. */
function bareStart(line: string, complete: boolean, tools: readonly string[]): Verdict {
  const l = line.trimStart();
  if (l === "") return complete ? "text" : "undecided";
  if (l.startsWith("{") || l.startsWith("[") || l.startsWith(">>>")) return "call";
  // A heading's marks, or a lower-case key, not complete yet: `#`, `command`, `name:` (a YAML-ish block).
  if (!complete && /^(?:#{1,6}|[a-z_][a-z0-9_]*(?::[ \t]*)?)$/.test(l)) return "undecided";
  const setOff = SET_OFF.exec(l)?.[0];
  if (setOff !== undefined && !l.startsWith("```")) return setOffStart(l.slice(setOff.length), complete, tools);
  // A YAML-ish line naming a tool (`name: read_file`, `tool: read_file`).
  const yaml = /^[A-Za-z_][\w-]*:[ \t]*([\w.-]*)$/.exec(l);
  if (yaml && yaml[1] !== "") {
    const v = yaml[1]!.toLowerCase();
    if (tools.includes(v)) return "call";
    if (!complete && tools.some((t) => t.startsWith(v))) return "undecided";
  }
  // A tool's name opening the line: `read_file(path=…)`, `read_file {…}`, `read_file` then arguments.
  const word = /^[A-Za-z_][\w.:-]*/.exec(l)?.[0];
  if (word !== undefined) {
    const lower = word.toLowerCase();
    if (tools.some((t) => t === lower) && (word.length < l.length || complete)) return "call";
    if (!complete && word.length === l.length && tools.some((t) => t.startsWith(lower))) return "undecided";
  }
  if (l.startsWith(">")) return ">>>".startsWith(l) && !complete ? "undecided" : "text";
  if (!l.startsWith("`")) return "text";
  if (!complete) return BARE_FENCES.some((f) => f.startsWith(l) || l.startsWith(f)) ? "undecided" : "text";
  const lang = /^```([\w-]*)\s*$/.exec(l)?.[1];
  return lang !== undefined && BARE_FENCES.includes(lang === "" ? "```" : `\`\`\`${lang}`) ? "call" : "text";
}

/** A line that sets a name off: a call's first line when the name is a tool's and nothing else follows. */
function setOffStart(rest: string, complete: boolean, tools: readonly string[]): Verdict {
  const m = /^([A-Za-z_][\w.-]*)((?:\(\)?)?[*_`]{0,3}:?[ \t]*)$/.exec(rest.trimStart());
  if (!m) return complete || rest.trim() !== "" ? "text" : "undecided";
  const name = m[1]!.toLowerCase();
  if (tools.includes(name)) return complete ? "call" : "undecided";
  return !complete && m[2] === "" && tools.some((t) => t.startsWith(name)) ? "undecided" : "text";
}

/** After a complete `key:` line, whether the next line makes it a YAML-ish block (an indented `key:`). */
function yamlNext(next: string, complete: boolean): Verdict {
  if (/^[ \t]+[A-Za-z_][\w-]*:/.test(next)) return "call";
  return !complete && /^(?:[ \t]+[\w-]*)?$/.test(next) ? "undecided" : "text";
}

/**
 * The guard costs the same for every delta however long the reply grows: it never reads the
 * whole text. Markers are searched in the new delta plus the longest marker's length before it
 * (earlier text was searched already), and the first two lines are kept only until their
 * verdict is settled. The held text is appended to and read once, at the end.
 */
export class ToolCallStreamGuard {
  private readonly markers: string[];
  /** The run's tool names in lower case (Cline-style tags, bare `name(` lines). */
  private readonly tools: string[];
  private readonly longest: number;
  /** The longest fixed marker: how far back a cut one may begin. */
  private readonly fixedLongest: number;
  /** Text not shown yet: short while not holding, everything from the hold on otherwise. */
  private unshown = "";
  private shown = 0;
  private length = 0;
  private holding = false;
  /** The last `longest - 1` characters: where a marker cut by a delta boundary begins. */
  private tail = "";
  /** The reply's start, while the first two lines may still open a bare call. */
  private head: string | undefined = "";

  /** `toolNames`: the run's tools, whose names a Cline-style reply writes as XML tags. */
  constructor(toolNames: readonly string[] = []) {
    this.markers = MARKERS;
    this.tools = toolNames.map((n) => n.toLowerCase());
    // Room in the window for a generic tag's name cut by a delta boundary.
    this.fixedLongest = Math.max(LINE_MARKER.length, ...this.markers.map((m) => m.length));
    this.longest = Math.max(64, this.fixedLongest);
  }

  /** Adds a streamed delta; returns the part that is safe to show now (maybe ""). */
  push(delta: string): string {
    this.unshown += delta;
    const before = this.length;
    this.length += delta.length;
    if (this.holding) return "";
    if (this.head !== undefined) this.head += delta;
    const window = this.tail + delta;
    const windowStart = before - this.tail.length;
    this.tail = window.slice(-(this.longest - 1));
    const safe = this.safeEnd(window, windowStart);
    const out = this.unshown.slice(0, safe - this.shown);
    this.unshown = this.unshown.slice(safe - this.shown);
    this.shown = safe;
    return out;
  }

  /** At the end of the reply: what was held back, to show when it held no call after all. */
  release(): string {
    const out = this.unshown;
    this.unshown = "";
    this.shown = this.length;
    return out;
  }

  private hold(at: number): number {
    this.holding = true;
    return Math.max(this.shown, at);
  }

  private safeEnd(window: string, windowStart: number): number {
    const found = this.markers.map((m) => window.indexOf(m)).filter((i) => i >= 0);
    const generic = this.genericMarker(window);
    if (generic >= 0) found.push(generic);
    const line = window.indexOf(LINE_MARKER);
    // The newline before `>>>` is shown; the hold starts at the `>`.
    if (line >= 0) found.push(line + 1);
    if (found.length > 0) return this.hold(windowStart + Math.min(...found));

    const lead = this.leadEnd();
    if (this.holding) return lead!;
    const partialLine = /\n(>{1,2})$/.exec(window)?.[1]?.length ?? 0;
    const partialGeneric = partialGenericLength(window);
    const partial = Math.max(
      this.shown,
      this.length - Math.max(partialLine, partialGeneric, this.partialMarkerLength(window)),
    );
    // A lead-in line still undecided and a label that may open a call both hold: the earlier wins.
    return lead === undefined ? partial : Math.min(lead, partial);
  }

  /** The first generic wrapper in the window, or -1. */
  private genericMarker(window: string): number {
    // Most deltas hold none of the characters a wrapper starts with: no regex runs for them.
    if (!/[<[`:]/.test(window)) return -1;
    // A label line naming one of the tools: `Action: read_file`, `✿FUNCTION✿: read_file`, `Call: read_file(`.
    for (const m of window.matchAll(LABEL_LINE))
      if (m[2] !== undefined && labelPart(m[1]!) === "name" && this.tools.includes(m[2].toLowerCase())) return m.index;
    for (const m of window.matchAll(LABEL_THEN_CALL)) if (labelPart(m[2]!) === "name") return m.index;
    for (const m of window.matchAll(GENERIC)) {
      const [all, tag, bracket, fence] = m;
      if (all.startsWith("<|") || all.startsWith("<｜")) return m.index;
      // Gorilla's `<<function>>` is held from its first `<`.
      const at = m.index > 0 && window[m.index - 1] === "<" ? m.index - 1 : m.index;
      if (tag !== undefined && (callish(tag, TAG_WORDS) || this.tools.includes(tag.toLowerCase()))) return at;
      if (bracket !== undefined && callish(bracket, BRACKET_WORDS)) return m.index;
      if (fence !== undefined && callish(fence, FENCE_WORDS)) return m.index;
    }
    return -1;
  }

  /** Where the first two lines stop what may be shown, or undefined when they do not. */
  private leadEnd(): number | undefined {
    const text = this.head;
    if (text === undefined) return undefined;
    let start = 0;
    for (let n = 0; n < LEAD_LINES && start <= MAX_LEAD; n++) {
      const end = text.indexOf("\n", start);
      const complete = end >= 0;
      const line = text.slice(start, complete ? end : undefined);
      let verdict = bareStart(line, complete, this.tools);
      if (verdict === "text" && complete && /^[A-Za-z_][\w-]*:[ \t]*$/.test(line)) {
        const nextEnd = text.indexOf("\n", end + 1);
        verdict = yamlNext(text.slice(end + 1, nextEnd < 0 ? undefined : nextEnd), nextEnd >= 0);
      }
      if (verdict === "call") return this.hold(start);
      if (verdict === "undecided") return Math.max(this.shown, start);
      // A lead-in holds no code: after a fence of code no line opens a bare call.
      if (!complete || text.startsWith("```", start)) {
        if (complete) this.head = undefined;
        // A line still growing past the lead-in's length: no later line can open a bare call.
        if (text.length > MAX_LEAD) this.head = undefined;
        return undefined;
      }
      start = end + 1;
    }
    // A "text" verdict never changes as its line grows (only blank lines, fence openers and the
    // start of a tool's name are undecided). Once every line that can open a bare call has one,
    // the start is not looked at again.
    this.head = undefined;
    return undefined;
  }

  /** The length of the longest end of `text` that is the start of a marker ("…<tool_ca"). */
  private partialMarkerLength(text: string): number {
    for (let n = Math.min(this.fixedLongest - 1, text.length); n > 0; n--) {
      const tail = text.slice(text.length - n);
      if (this.markers.some((m) => m.startsWith(tail))) return n;
    }
    return 0;
  }
}
