// While a reply streams, text that may be a tool call written into the text is held back from
// the screen: recovery (text-tool-calls.ts) runs only once the reply is complete, and raw call
// markup must not flash by in the meantime. What was held and turned out not to be a call is
// released at the end.

/** Openers of call markup (tool-call-markup.ts's scanners): a call wherever they stand. */
const MARKERS = [
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
];
const LONGEST_MARKER = Math.max(...MARKERS.map((m) => m.length));

/** A bare call (a JSON object or list, a fenced JSON block) counts only in the first two lines. */
const MAX_LEAD_LINE = 200;
const BARE_FENCES = ["```json", "```tool_call", "```tool_code", "```javascript", "```js", "```python", "```"];

type Verdict = "call" | "text" | "undecided";

/** Can this line of the reply start a bare call? Undecided while it is too short to tell. */
function bareStart(line: string, complete: boolean): Verdict {
  const l = line.trimStart();
  if (l === "") return complete ? "text" : "undecided";
  if (l.startsWith("{") || l.startsWith("[")) return "call";
  if (!l.startsWith("`")) return "text";
  if (!complete) return BARE_FENCES.some((f) => f.startsWith(l) || l.startsWith(f)) ? "undecided" : "text";
  const lang = /^```([\w-]*)\s*$/.exec(l)?.[1];
  return lang !== undefined && BARE_FENCES.includes(lang === "" ? "```" : `\`\`\`${lang}`) ? "call" : "text";
}

export class ToolCallStreamGuard {
  private text = "";
  private shown = 0;
  private holding = false;

  /** Adds a streamed delta; returns the part that is safe to show now (maybe ""). */
  push(delta: string): string {
    this.text += delta;
    if (this.holding) return "";
    const safe = this.safeEnd();
    const out = this.text.slice(this.shown, safe);
    this.shown = safe;
    return out;
  }

  /** At the end of the reply: what was held back, to show when it held no call after all. */
  release(): string {
    const out = this.text.slice(this.shown);
    this.shown = this.text.length;
    return out;
  }

  private hold(at: number): number {
    this.holding = true;
    return Math.max(this.shown, at);
  }

  private safeEnd(): number {
    const from = Math.max(0, this.shown - LONGEST_MARKER);
    const found = MARKERS.map((m) => this.text.indexOf(m, from)).filter((i) => i >= 0);
    if (found.length > 0) return this.hold(Math.min(...found));

    const firstBreak = this.text.indexOf("\n");
    const lines = [{ start: 0, end: firstBreak }];
    if (firstBreak >= 0 && firstBreak <= MAX_LEAD_LINE) {
      lines.push({ start: firstBreak + 1, end: this.text.indexOf("\n", firstBreak + 1) });
    }
    for (const { start, end } of lines) {
      const complete = end >= 0;
      const verdict = bareStart(this.text.slice(start, complete ? end : undefined), complete);
      if (verdict === "call") return this.hold(start);
      if (verdict === "undecided") return Math.max(this.shown, start);
    }
    return Math.max(this.shown, this.text.length - partialMarkerLength(this.text));
  }
}

/** The length of the longest end of `text` that is the start of a marker ("…<tool_ca"). */
function partialMarkerLength(text: string): number {
  for (let n = Math.min(LONGEST_MARKER - 1, text.length); n > 0; n--) {
    const tail = text.slice(text.length - n);
    if (MARKERS.some((m) => m.startsWith(tail))) return n;
  }
  return 0;
}
