import type { Model } from "../model.js";
import { entryLines, type EntryViewContext } from "./entry.js";

function contextOf(model: Model, width: number): EntryViewContext {
  return { width, now: model.now, thinkingOpen: model.thinkingOpen, model: model.config.model };
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

/** The `height` lines that end `scroll` lines above the newest one. */
export function visibleTranscript(model: Model, width: number, height: number): string[] {
  const ctx = contextOf(model, width);
  const need = model.scroll + height;
  const chunks: string[][] = [];
  let total = 0;
  for (let i = model.entries.length - 1; i >= 0 && total < need; i--) {
    const lines = entryLines(model.entries[i]!, ctx);
    chunks.push(lines);
    total += lines.length;
  }
  const all: string[] = [];
  for (let i = chunks.length - 1; i >= 0; i--) all.push(...chunks[i]!);
  const end = Math.max(0, all.length - model.scroll);
  const start = Math.max(0, end - height);
  return all.slice(start, end);
}
