// How long grep_files, glob_files and list_files may go on over a huge tree. Once they have more
// than they show, they count on for COUNT_MS at most, then stop and say the count is a floor; a
// search that has not filled its page stops at SEARCH_MS (2 s: issue 27 asks for about a second over a
// million files; a tree that big is not read whole in that time) and says where it got. Meanwhile they
// report progress every PROGRESS_MS, and Esc (the run's signal) stops them at once.
import type { ToolContext } from "../types.js";

export const COUNT_MS = 1000;
export const SEARCH_MS = 2000;
export const PROGRESS_MS = 250;

export type StopReason = "count-time" | "search-time";

export class SearchBudget {
  private readonly started = Date.now();
  private fullAt: number | undefined;
  private lastProgress = this.started;
  stopped: StopReason | undefined;

  constructor(
    private readonly ctx: Pick<ToolContext, "emit" | "callId"> | undefined,
    private readonly what: string,
    private readonly limits = { countMs: COUNT_MS, searchMs: SEARCH_MS },
  ) {}

  /** Called as results come in: true when the search should stop now (and why is kept). */
  over(found: number, shown: number): boolean {
    const now = Date.now();
    if (found > shown && this.fullAt === undefined) this.fullAt = now;
    if (this.fullAt !== undefined && now - this.fullAt > this.limits.countMs) this.stopped = "count-time";
    else if (now - this.started > this.limits.searchMs) this.stopped = "search-time";
    if (this.ctx && now - this.lastProgress >= PROGRESS_MS) {
      this.lastProgress = now;
      this.ctx.emit({ type: "tool-progress", id: this.ctx.callId, progress: found, message: `${this.what} so far` });
    }
    return this.stopped !== undefined;
  }
}

const n = (x: number) => x.toLocaleString("en-US");

/**
 * The line after a capped list: "[first 200 of 48,112 matches; narrow the pattern or the path]",
 * with "+" and why when counting stopped early. Nothing when all were shown.
 */
export function capNote(
  shown: number,
  found: number,
  noun: string,
  stopped: StopReason | undefined,
  hint = "narrow the pattern or the path",
): string | null {
  const plural = noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}${noun.endsWith("h") ? "es" : "s"}`;
  if (stopped === "search-time") {
    return `[stopped before the end of the tree (time limit): ${n(found)} ${found === 1 ? noun : plural} so far, there may be more; ${hint}]`;
  }
  if (found <= shown && stopped === undefined) return null;
  const total = stopped === "count-time" ? `${n(found)}+` : n(found);
  return `[first ${n(Math.min(shown, found))} of ${total} ${plural}; ${hint}]`;
}
