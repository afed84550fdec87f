import type { Model } from "../model.js";
import { maxInputRows, wrapInput } from "./input.js";
import { menuRowCount } from "./menu.js";
import { pinnedRowCount } from "./pinned.js";

/**
 * Screen rows: transcript, pinned lines (todos, plan prompt), one status line, one rule, the
 * input (grows to a third of the screen) and the completion menu under it.
 */
export function inputRows(model: Model): number {
  const rows = model.input.text ? wrapInput(model.input.text, model.input.cursor, model.width).rows.length : 1;
  return Math.min(maxInputRows(model.height), rows);
}

export function transcriptHeight(model: Model): number {
  return Math.max(1, model.height - inputRows(model) - 2 - menuRowCount(model) - pinnedRowCount(model));
}
