// While a reply streams, text that may be a tool call written into the text is held back from
// the screen: recovery (text-tool-calls.ts) runs only once the reply is complete, and raw call
// markup must not flash by in the meantime. What was held and turned out not to be a call is
// released at the end.

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

/** A bare call (a JSON object or list, a fenced JSON block) counts only in the first two lines. */
const MAX_LEAD_LINE = 200;
const BARE_FENCES = ["```json", "```tool_call", "```tool_code", "```javascript", "```js", "```python", "```"];

type Verdict = "call" | "text" | "undecided";

/** Can this line of the reply start a bare call? Undecided while it is too short to tell. */
function bareStart(line: string, complete: boolean): Verdict {
  const l = line.trimStart();
  if (l === "") return complete ? "text" : "undecided";
  if (l.startsWith("{") || l.startsWith("[") || l.startsWith(">>>")) return "call";
  if (l.startsWith(">")) return ">>>".startsWith(l) && !complete ? "undecided" : "text";
  if (!l.startsWith("`")) return "text";
  if (!complete) return BARE_FENCES.some((f) => f.startsWith(l) || l.startsWith(f)) ? "undecided" : "text";
  const lang = /^```([\w-]*)\s*$/.exec(l)?.[1];
  return lang !== undefined && BARE_FENCES.includes(lang === "" ? "```" : `\`\`\`${lang}`) ? "call" : "text";
}

/**
 * The guard costs the same for every delta however long the reply grows: it never reads the
 * whole text. Markers are searched in the new delta plus the longest marker's length before it
 * (earlier text was searched already), and the first two lines are kept only until their
 * verdict is settled. The held text is appended to and read once, at the end.
 */
export class ToolCallStreamGuard {
  /** MARKERS, and Cline-style `<tool_name>` openers of the run's own tools. */
  private readonly markers: string[];
  private readonly longest: number;
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
    this.markers = [...MARKERS, ...toolNames.map((n) => `<${n}>`)];
    this.longest = Math.max(LINE_MARKER.length, ...this.markers.map((m) => m.length));
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
    const line = window.indexOf(LINE_MARKER);
    // The newline before `>>>` is shown; the hold starts at the `>`.
    if (line >= 0) found.push(line + 1);
    if (found.length > 0) return this.hold(windowStart + Math.min(...found));

    const lead = this.leadEnd();
    if (lead !== undefined) return lead;
    const partialLine = /\n(>{1,2})$/.exec(window)?.[1]?.length ?? 0;
    return Math.max(this.shown, this.length - Math.max(partialLine, this.partialMarkerLength(window)));
  }

  /** Where the first two lines stop what may be shown, or undefined when they do not. */
  private leadEnd(): number | undefined {
    const text = this.head;
    if (text === undefined) return undefined;
    const firstBreak = text.indexOf("\n");
    const lines = [{ start: 0, end: firstBreak }];
    if (firstBreak >= 0 && firstBreak <= MAX_LEAD_LINE) {
      lines.push({ start: firstBreak + 1, end: text.indexOf("\n", firstBreak + 1) });
    }
    for (const { start, end } of lines) {
      const complete = end >= 0;
      const line = text.slice(start, complete ? end : undefined);
      const verdict = bareStart(line, complete);
      if (verdict === "call") return this.hold(start);
      if (verdict === "undecided") return Math.max(this.shown, start);
    }
    // A "text" verdict never changes as its line grows (only blank lines and fence openers are
    // undecided). Once every line that can open a bare call has one, the start is not looked at again.
    const noSecondLine = firstBreak > MAX_LEAD_LINE || (firstBreak < 0 && text.length > MAX_LEAD_LINE);
    if (noSecondLine || lines.length === 2) this.head = undefined;
    return undefined;
  }

  /** The length of the longest end of `text` that is the start of a marker ("…<tool_ca"). */
  private partialMarkerLength(text: string): number {
    for (let n = Math.min(this.longest - 1, text.length); n > 0; n--) {
      const tail = text.slice(text.length - n);
      if (this.markers.some((m) => m.startsWith(tail))) return n;
    }
    return 0;
  }
}
