// Lines pinned between the transcript and the status line: the todo checklist while a run goes,
// the prompt to carry out a plan, and the messages queued behind the run. Their count shrinks
// the transcript (layout.ts).
import { sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { truncateLine } from "../../render/wrap.js";
import type { Model } from "../model.js";
import { todoPanelLines } from "../layout/todos.js";

export function pinnedLines(model: Model, width: number): string[] {
  const lines = todoPanelLines(model, width);
  if (model.planReady) {
    lines.push(
      truncateLine(
        `${theme.warn("Plan ready.")} ${theme.ok("y/Enter")} switch to auto-edit and carry it out · ${theme.err("n/Esc")} keep planning`,
        width,
      ),
    );
  }
  lines.push(...steeringLines(model, width));
  lines.push(...queuedLines(model, width));
  return lines;
}

/** Messages sent to steer the run that the model has not taken yet: one row each, until its next step. */
function steeringLines(model: Model, width: number): string[] {
  return model.steering.slice(-QUEUED_SHOWN).map(({ text }) => {
    const first = sanitizeLine(text.trim().split("\n")[0] ?? "");
    return theme.dim(truncateLine(`next step: ${first}${text.trim().includes("\n") ? " …" : ""}`, width));
  });
}

/** Queued messages shown whole at most this many; the rest are counted. */
const QUEUED_SHOWN = 3;

/**
 * Each queued message, dimmed, one row each (its first line), until it is sent: Codex shows its
 * queue above the composer the same way. Up on an empty input takes the last one back.
 */
function queuedLines(model: Model, width: number): string[] {
  const n = model.queued.length;
  if (n === 0) return [];
  const shown = model.queued.slice(-QUEUED_SHOWN);
  const lines: string[] = [];
  if (n > shown.length) lines.push(theme.dim(`queued: … ${n - shown.length} earlier`));
  shown.forEach((text, i) => {
    const first = sanitizeLine(text.trim().split("\n")[0] ?? "");
    const more = text.trim().includes("\n") ? " …" : "";
    const hint = i === shown.length - 1 ? "  (↑ edit)" : "";
    lines.push(theme.dim(truncateLine(`queued: ${first}${more}`, Math.max(1, width - hint.length)) + hint));
  });
  return lines;
}

/** Independent of the width: every pinned line is one row. */
export function pinnedRowCount(model: Model): number {
  return pinnedLines(model, 80).length;
}
