// Lines pinned between the transcript and the status line: the todo checklist while a run goes,
// and the prompt to carry out a plan. Their count shrinks the transcript (layout.ts).
import { theme } from "../../render/theme.js";
import { truncateLine } from "../../render/wrap.js";
import type { Model } from "../model.js";
import { todoPanelLines } from "../layout/todos.js";

export function pinnedLines(model: Model, width: number): string[] {
  const lines = todoPanelLines(model, width);
  if (model.planReady) {
    lines.push(
      truncateLine(
        `${theme.warn("Plan ready.")} ${theme.ok("y")} switch to auto-edit and carry it out · ${theme.err("n")} keep planning`,
        width,
      ),
    );
  }
  return lines;
}

/** Independent of the width: every pinned line is one row. */
export function pinnedRowCount(model: Model): number {
  return pinnedLines(model, 80).length;
}
