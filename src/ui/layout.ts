import type { Model } from "./model.js";

export const MAX_INPUT_LINES = 8;

/** Screen rows: transcript, one status line, one rule, and the input (grows to MAX_INPUT_LINES). */
export function inputRows(model: Model): number {
  return Math.min(MAX_INPUT_LINES, model.input.text.split("\n").length);
}

export function transcriptHeight(model: Model): number {
  return Math.max(1, model.height - inputRows(model) - 2);
}
