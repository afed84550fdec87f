import type { Model } from "../model.js";
import { entryLines, type EntryViewContext } from "./entry.js";

function contextOf(model: Model, width: number): EntryViewContext {
  return {
    width,
    // A tool's clock stops while its permission dialog waits for the user.
    now: model.dialog?.kind === "permission" ? model.dialog.openedAt : model.now,
    thinkingOpen: model.thinkingOpen,
    toolOutputOpen: model.toolOutputOpen,
    toolOutputLines: model.toolOutputLines,
    model: model.config.model,
  };
}

/** A line of the transcript: an index into model.entries and a line within that entry. */
export interface LinePos {
  index: number;
  line: number;
}

/**
 * Lines of the transcript, counted from the newest back, stopping once `limit` is reached:
 * the cost follows what is asked for, not the length of the transcript.
 */
export function transcriptLineCount(model: Model, width: number, limit: number): number {
  const ctx = contextOf(model, width);
  let total = 0;
  for (let i = model.entries.length - 1; i >= 0 && total < limit; i--) {
    total += entryLines(model.entries[i]!, ctx).length;
  }
  return total;
}

/** Where the scroll anchor's entry is now; -1 when following new output or the entry is gone. */
export function anchorIndex(model: Model): number {
  const anchor = model.anchor;
  if (!anchor) return -1;
  // Entry ids only grow along the transcript: a binary search finds the anchor.
  let lo = 0;
  let hi = model.entries.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const id = model.entries[mid]!.id;
    if (id === anchor.id) return mid;
    if (id < anchor.id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The top line of the view: the anchor when scrolled up, else the line `height` above the end. */
export function topLine(model: Model, width: number, height: number): LinePos {
  const index = anchorIndex(model);
  if (index >= 0) {
    const count = entryLines(model.entries[index]!, contextOf(model, width)).length;
    return { index, line: Math.max(0, Math.min(model.anchor!.line, count - 1)) };
  }
  const ctx = contextOf(model, width);
  let need = height;
  for (let i = model.entries.length - 1; i >= 0; i--) {
    const count = entryLines(model.entries[i]!, ctx).length;
    if (count >= need) return { index: i, line: count - need };
    need -= count;
  }
  return { index: 0, line: 0 };
}

/** Lines from `pos` to the end of the transcript, counting no further than `limit`. */
export function linesFrom(model: Model, width: number, pos: LinePos, limit = Number.MAX_SAFE_INTEGER): number {
  const ctx = contextOf(model, width);
  let total = 0;
  for (let i = pos.index; i < model.entries.length && total < limit; i++) {
    total += entryLines(model.entries[i]!, ctx).length - (i === pos.index ? pos.line : 0);
  }
  return total;
}

/** `pos` moved by n lines (positive = up, into history), kept within the transcript. */
export function moveLine(model: Model, width: number, pos: LinePos, n: number): LinePos {
  const ctx = contextOf(model, width);
  const len = (i: number) => entryLines(model.entries[i]!, ctx).length;
  let { index, line } = pos;
  if (n > 0) {
    let left = n;
    while (left > 0) {
      if (line >= left) return { index, line: line - left };
      if (index === 0) return { index: 0, line: 0 };
      left -= line + 1;
      index--;
      line = Math.max(0, len(index) - 1);
    }
    return { index, line };
  }
  line -= n;
  while (index < model.entries.length - 1 && line >= len(index)) {
    line -= len(index);
    index++;
  }
  return { index, line: Math.min(line, Math.max(0, len(index) - 1)) };
}

/** The `height` lines of the view: from the anchor when scrolled up, else the newest ones. */
export function visibleTranscript(model: Model, width: number, height: number): string[] {
  const ctx = contextOf(model, width);
  const index = anchorIndex(model);
  if (index >= 0) {
    // Scrolled up: the view hangs from its top line, so text arriving below never moves it.
    const top = topLine(model, width, height);
    const out: string[] = [];
    for (let i = top.index; i < model.entries.length && out.length < height; i++) {
      const lines = entryLines(model.entries[i]!, ctx);
      for (let l = i === top.index ? top.line : 0; l < lines.length && out.length < height; l++) out.push(lines[l]!);
    }
    return out;
  }
  const chunks: string[][] = [];
  let total = 0;
  for (let i = model.entries.length - 1; i >= 0 && total < height; i--) {
    const lines = entryLines(model.entries[i]!, ctx);
    chunks.push(lines);
    total += lines.length;
  }
  // Only the last `height` lines are copied: the newest entry may hold tens of thousands.
  const out: string[] = [];
  let skip = Math.max(0, total - height);
  for (let i = chunks.length - 1; i >= 0; i--) {
    const lines = chunks[i]!;
    if (skip >= lines.length) {
      skip -= lines.length;
      continue;
    }
    for (let l = skip; l < lines.length; l++) out.push(lines[l]!);
    skip = 0;
  }
  return out;
}

/** Lines below the view while scrolled up (0 when following). */
export function linesBelow(model: Model, width: number, height: number): number {
  if (anchorIndex(model) < 0) return 0;
  return Math.max(0, linesFrom(model, width, topLine(model, width, height)) - height);
}
