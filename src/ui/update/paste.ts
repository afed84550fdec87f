// Large pastes collapse to one placeholder in the input, `[Pasted text #1 +200 lines]`; the
// full text is what is sent. Ctrl+E (or Enter with the cursor inside one) expands it for editing.
import type { Model } from "../model.js";
import { logicalLines } from "../../render/wrap.js";

/** A paste this long would push everything else out of the input box. */
export const COLLAPSE_LINES = 10;
export const COLLAPSE_CHARS = 2000;

const PLACEHOLDER = /\[Pasted text #(\d+) \+\d+ lines\]/g;

export function isLargePaste(text: string): boolean {
  return logicalLines(text) >= COLLAPSE_LINES || text.length > COLLAPSE_CHARS;
}

/** Keeps the paste and returns its placeholder. */
export function collapsePaste(model: Model, text: string): string {
  model.pastes.push(text);
  // A copied block usually ends in a newline: 30 lines copied are 30 lines, not 31.
  return `[Pasted text #${model.pastes.length} +${logicalLines(text)} lines]`;
}

/** The text with every placeholder replaced by its paste. */
export function expandPastes(text: string, pastes: readonly string[]): string {
  return text.replace(PLACEHOLDER, (whole, n: string) => pastes[Number(n) - 1] ?? whole);
}

/** The placeholder the cursor is in or right after, if any. */
function placeholderAt(text: string, cursor: number, inside: boolean): { start: number; end: number } | null {
  for (const m of text.matchAll(PLACEHOLDER)) {
    const start = m.index;
    const end = start + m[0].length;
    if (inside ? cursor > start && cursor < end : cursor > start && cursor <= end) return { start, end };
  }
  return null;
}

/**
 * Expands the placeholder at the cursor into its text; returns whether there was one.
 * `inside`: only when the cursor is within it (Enter), not just after it (Ctrl+E).
 */
export function expandPasteAtCursor(model: Model, inside: boolean): boolean {
  const { text, cursor } = model.input;
  const at = placeholderAt(text, cursor, inside);
  if (!at) return false;
  const full = expandPastes(text.slice(at.start, at.end), model.pastes);
  model.input = { text: text.slice(0, at.start) + full + text.slice(at.end), cursor: at.start + full.length };
  return true;
}
