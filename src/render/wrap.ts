import { stringWidth, wrapAnsi } from "./lazy-width.js";

const SGR_CODES = /\x1b\[[0-9;]*m/g;

/**
 * True when every character is one column wide and one UTF-16 unit: ASCII, Latin, Greek and
 * Cyrillic letters, common punctuation, arrows, box drawing, braille. Most terminal text is.
 */
function allNarrow(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e) continue;
    if (c >= 0xa0 && c <= 0x2ff && c !== 0xad) continue;
    if (c >= 0x370 && c <= 0x482) continue;
    if ((c >= 0x2010 && c <= 0x2027) || (c >= 0x2030 && c <= 0x205e)) continue;
    if ((c >= 0x2190 && c <= 0x21ff) || (c >= 0x2500 && c <= 0x25fc) || (c >= 0x2800 && c <= 0x28ff)) continue;
    return false;
  }
  return true;
}

/** Columns a string takes on screen: SGR codes count 0, CJK and emoji 2, combining marks 0. */
export function displayWidth(s: string): number {
  // string-width's Unicode tables and segmenter cost microseconds a character (and ~20 ms to
  // compile on first use); they are needed only for text beyond the narrow common case.
  const plain = s.includes("\x1b") ? s.replace(SGR_CODES, "") : s;
  return allNarrow(plain) ? plain.length : stringWidth(s);
}

// Leading indentation, which may have SGR codes mixed in (highlighted, indented code).
const LEAD = /^(?:[ ]|\x1b\[[0-9;]*m)*/;

function cleanWidth(width: number): number {
  return Number.isFinite(width) ? Math.max(1, Math.floor(width)) : 1;
}

/**
 * Wrap one line to `width` columns. Words move to the next line; a word longer than the width is
 * cut, so no line is wider than `width` (only a 2-column character at width 1 cannot fit; it is
 * replaced by `…`). SGR styles open at a break are closed and reopened on the next line.
 * The line's own leading indentation is repeated on continuation lines (hanging indent) when it
 * takes at most half the width; otherwise continuation lines start at column 0.
 * A `\n` in `line` is treated as a line break.
 */
export function wrapLine(line: string, width: number): string[] {
  const cols = cleanWidth(width);
  if (line.includes("\n")) return line.split("\n").flatMap((part) => wrapLine(part, cols));
  if (displayWidth(line) <= cols) return [line];

  const lead = LEAD.exec(line)?.[0] ?? "";
  const leadSpaces = lead.length - lead.replace(/ /g, "").length;
  const hang = leadSpaces > 0 && leadSpaces * 2 <= cols ? leadSpaces : 0;
  const body = hang > 0 ? lead.replace(/ /g, "") + line.slice(lead.length) : line;
  const indent = " ".repeat(hang);
  const wrapped = wrapAnsi(body, cols - hang, { hard: true, trim: true }).split("\n");
  return wrapped.map((part) => {
    const out = indent + part;
    return displayWidth(out) <= cols ? out : truncateLine(out, cols);
  });
}

/** Wrap every line of `text` (split on `\n`); an empty line stays one empty line. */
export function wrapText(text: string, width: number): string[] {
  return text.split("\n").flatMap((line) => wrapLine(line, width));
}

// Enough of a long line to hold `columns` columns unless it is mostly zero-width; never ends
// inside an SGR sequence.
function probePrefix(line: string, columns: number): string {
  let end = columns * 4 + 64;
  if (end >= line.length) return line;
  const esc = line.lastIndexOf("\x1b", end - 1);
  if (esc >= 0) {
    const sgr = /^\x1b\[[0-9;]*m/.exec(line.slice(esc, esc + 64));
    if (sgr) end = Math.max(end, esc + sgr[0].length);
  }
  return line.slice(0, end);
}

/** Cut `line` to at most `width` columns, ending in `…` when something was cut. */
export function truncateLine(line: string, width: number): string {
  const cols = Number.isFinite(width) ? Math.floor(width) : 0;
  if (line.length * 2 <= cols) return line;
  // Only the start of a long line matters: measuring or splitting all of it costs microseconds a character.
  let probe = probePrefix(line, Math.max(cols, 0));
  if (displayWidth(probe) <= cols) {
    if (probe === line || displayWidth(line) <= cols) return line;
    probe = line;
  }
  if (cols < 1) return "";
  if (cols === 1) return "…";
  const head = wrapAnsi(probe, cols - 1, { hard: true, trim: false, wordWrap: false }).split("\n")[0] ?? "";
  // A cluster wider than the room left (a 2-column character at room 1) can leave the head too wide.
  if (displayWidth(head) > cols - 1) return truncateLine(head, cols - 1) + " ";
  return head + "…";
}

/** Exactly `width` columns: shorter lines padded with spaces, longer ones truncated with `…`. */
export function padLine(line: string, width: number): string {
  const cut = truncateLine(line, width);
  const missing = Math.max(0, Math.floor(width) - displayWidth(cut));
  return cut + " ".repeat(missing);
}

/** Lines of a text counted as the user would: a trailing newline adds none. */
export function logicalLines(text: string): number {
  return text.replace(/\n$/, "").split("\n").length;
}
