import type { Model } from "./model.js";
import { maxInputRows, wrapInput } from "./view/input.js";

/** Screen rows: transcript, one status line, one rule, and the input (grows to a third of the screen). */
export function inputRows(model: Model): number {
  const rows = model.input.text ? wrapInput(model.input.text, model.input.cursor, model.width).rows.length : 1;
  return Math.min(maxInputRows(model.height), rows);
}

export function transcriptHeight(model: Model): number {
  return Math.max(1, model.height - inputRows(model) - 2);
}
