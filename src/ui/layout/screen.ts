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

/** Rows above the status line: the transcript's, and an open dialog's (view/dialog.ts). */
export function transcriptHeight(model: Model): number {
  return Math.max(1, model.height - inputRows(model) - 2 - menuRowCount(model) - pinnedRowCount(model));
}

/** Transcript rows an open dialog leaves, so the end of the answer stays in view above it. */
const TRANSCRIPT_UNDER_DIALOG = 4;

/**
 * The most rows a dialog may take (its border included): it sits above the status line, full
 * width, and leaves a few transcript rows; on a tiny screen it takes what there is.
 */
export function dialogRoom(model: Model): number {
  const above = transcriptHeight(model);
  return Math.max(Math.min(above, 6), above - TRANSCRIPT_UNDER_DIALOG);
}
