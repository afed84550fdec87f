import { current, isDraft } from "immer";
import type { Model } from "../model.js";
import { linesBelow, linesFrom, moveLine, topLine, type LinePos } from "../layout/transcript.js";
import { transcriptHeight } from "../layout/screen.js";

/**
 * Scrolls by n lines (positive = up, into history). Scrolled up, the view is anchored to a
 * transcript line (entry id + line), so new text below and re-rendered entries above never move
 * it; reaching the end follows new output again.
 */
export function scrollBy(model: Model, n: number): void {
  const r = readable(model);
  const height = transcriptHeight(r);
  const top = moveLine(r, r.width, topLine(r, r.width, height), n);
  setTop(model, r, top, height, true);
}

export function scrollToTop(model: Model): void {
  setTop(model, readable(model), { index: 0, line: 0 }, transcriptHeight(model), true);
}

/** Follows new output again (End, Ctrl+End, sending a message). */
export function follow(model: Model): void {
  model.anchor = null;
}

/**
 * After any change: an anchor whose entry is gone follows again, and one too close to the end
 * (the transcript shrank, the screen grew) is moved so the view stays full. Costs at most a
 * screen of lines, so it runs after every Msg.
 */
export function keepAnchorValid(model: Model): void {
  if (!model.anchor) return;
  const r = readable(model);
  const height = transcriptHeight(r);
  const top = topLine(r, r.width, height);
  if (r.entries[top.index]?.id !== model.anchor.id) return follow(model);
  if (linesFrom(r, r.width, top, height + 1) <= height) return follow(model);
  if (model.anchor.line !== top.line) model.anchor.line = top.line;
}

/** Writes the new top into `model` (the draft); `r` is the same model, read without drafts. */
function setTop(model: Model, r: Model, top: LinePos, height: number, userMoved: boolean): void {
  const entry = r.entries[top.index];
  // Within a screen of the end there is nothing below to wait for: follow new output.
  if (!entry || linesFrom(r, r.width, top, height + 1) <= height) return follow(model);
  const below = model.anchor && !userMoved ? model.anchor.below : 0;
  const anchor = { id: entry.id, line: top.line, below };
  // What is below when the user scrolls is the baseline for "N new lines" in the status line.
  if (userMoved) anchor.below = linesBelow({ ...r, anchor }, r.width, height);
  model.anchor = anchor;
}

/**
 * The model to read lines from. Rendered lines are cached by entry identity; inside update the
 * entries are immer drafts (new proxies), so reading them would render every entry again.
 */
function readable(model: Model): Model {
  return isDraft(model) ? current(model) : model;
}
