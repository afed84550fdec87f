import type { Model } from "../model.js";
import { linesBelow, linesFrom, moveLine, topLine, type LinePos } from "../view/transcript.js";
import { transcriptHeight } from "../layout.js";

/**
 * Scrolls by n lines (positive = up, into history). Scrolled up, the view is anchored to a
 * transcript line (entry id + line), so new text below and re-rendered entries above never move
 * it; reaching the end follows new output again.
 */
export function scrollBy(model: Model, n: number): void {
  const height = transcriptHeight(model);
  const top = moveLine(model, model.width, topLine(model, model.width, height), n);
  setTop(model, top, height, true);
}

export function scrollToTop(model: Model): void {
  setTop(model, { index: 0, line: 0 }, transcriptHeight(model), true);
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
  const height = transcriptHeight(model);
  const top = topLine(model, model.width, height);
  if (model.entries[top.index]?.id !== model.anchor.id) return follow(model);
  if (linesFrom(model, model.width, top, height + 1) <= height) return follow(model);
  model.anchor.line = top.line;
}

function setTop(model: Model, top: LinePos, height: number, userMoved: boolean): void {
  const entry = model.entries[top.index];
  // Within a screen of the end there is nothing below to wait for: follow new output.
  if (!entry || linesFrom(model, model.width, top, height + 1) <= height) return follow(model);
  const below = model.anchor && !userMoved ? model.anchor.below : 0;
  model.anchor = { id: entry.id, line: top.line, below };
  // What is below when the user scrolls is the baseline for "N new lines" in the status line.
  if (userMoved) model.anchor.below = linesBelow(model, model.width, height);
}
