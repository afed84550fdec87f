// The input box's arithmetic: soft-wrapping, the cursor's row and column, how tall the box may grow.
import { sanitizeLine } from "../../render/sanitize.js";
import { displayWidth } from "../../render/wrap.js";

export const PROMPT = "› ";

/** A `!command` line runs in the user's shell (update starts it; view colours its prompt). */
export const isShellLine = (text: string): boolean => text.startsWith("!");

export interface WrappedInput {
  rows: string[];
  /** The text offset each row starts at. */
  starts: number[];
  cursorRow: number;
  cursorCol: number;
}

// eslint-disable-next-line no-restricted-syntax -- a cache of a pure function: the last wrap, one entry
let last: { text: string; cursor: number; width: number; out: WrappedInput } | undefined;

/**
 * The input soft-wrapped to the width (after the 2-column prompt), with the cursor's row and
 * column. Memoised: layout asks for the row count several times per update.
 */
export function wrapInput(text: string, cursor: number, width: number): WrappedInput {
  if (last && last.text === text && last.cursor === cursor && last.width === width) return last.out;
  const avail = Math.max(4, width - PROMPT.length);
  const rows: string[] = [];
  const starts: number[] = [];
  let cursorRow = 0;
  let cursorCol = 0;
  let offset = 0;
  for (const logical of text.split("\n")) {
    let row = "";
    let rowWidth = 0;
    let rowStart = offset;
    let i = 0;
    for (const raw of logical) {
      // Pasted text may hold escapes and tabs: shown as visible text, never sent to the terminal.
      const ch = sanitizeLine(raw);
      const w = displayWidth(ch);
      if (rowWidth + w > avail) {
        rows.push(row);
        starts.push(rowStart);
        row = "";
        rowWidth = 0;
        rowStart = offset + i;
      }
      if (offset + i === cursor) {
        cursorRow = rows.length;
        cursorCol = rowWidth;
      }
      row += ch;
      rowWidth += w;
      i += raw.length;
    }
    if (offset + i === cursor) {
      // At the very end of a full row the cursor goes to the start of the next one.
      if (rowWidth >= avail) {
        rows.push(row);
        starts.push(rowStart);
        row = "";
        rowWidth = 0;
        rowStart = offset + i;
      }
      cursorRow = rows.length;
      cursorCol = rowWidth;
    }
    rows.push(row);
    starts.push(rowStart);
    offset += logical.length + 1;
  }
  const out = { rows, starts, cursorRow, cursorCol };
  last = { text, cursor, width, out };
  return out;
}

/**
 * The cursor moved one row of the wrapped input up (-1) or down (+1), to the same column or the
 * end of a shorter row; null from the first row up or the last row down (Up/Down walk the history).
 */
export function cursorOnRow(text: string, cursor: number, width: number, delta: -1 | 1): number | null {
  const { starts, cursorRow, cursorCol } = wrapInput(text, cursor, width);
  const row = cursorRow + delta;
  if (row < 0 || row >= starts.length) return null;
  const start = starts[row]!;
  const next = starts[row + 1];
  // A row that wraps ends where the next begins; the cursor stops before that (it would show on the next row).
  const softWrapped = next !== undefined && text[next - 1] !== "\n";
  const end = next === undefined ? text.length : softWrapped ? next : next - 1;
  let at = start;
  let col = 0;
  for (const raw of text.slice(start, end)) {
    const w = displayWidth(sanitizeLine(raw));
    if (col + w > cursorCol || (softWrapped && at + raw.length >= end)) break;
    col += w;
    at += raw.length;
  }
  return at;
}

/** The input box grows with its text up to a third of the screen, then scrolls inside itself. */
export function maxInputRows(height: number): number {
  return Math.max(1, Math.floor(height / 3));
}
