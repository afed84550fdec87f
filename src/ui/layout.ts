import type { Model } from "./model.js";
import { menuRowCount } from "./view/menu.js";
import { pinnedRowCount } from "./view/pinned.js";

export const MAX_INPUT_LINES = 8;

/**
 * Screen rows: transcript, pinned lines (todos, plan prompt), one status line, one rule, the
 * input (grows to MAX_INPUT_LINES) and the completion menu under it.
 */
export function inputRows(model: Model): number {
  return Math.min(MAX_INPUT_LINES, model.input.text.split("\n").length);
}

export function transcriptHeight(model: Model): number {
  return Math.max(1, model.height - inputRows(model) - 2 - menuRowCount(model) - pinnedRowCount(model));
}
