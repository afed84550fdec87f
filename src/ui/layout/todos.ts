import { sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { truncateLine } from "../../render/wrap.js";
import type { Model } from "../model.js";
import type { TodoItem } from "../steer-types.js";

export const TODO_PANEL_MAX = 8;

const MARK = { completed: "✓", in_progress: "▸", pending: "☐" } as const;

/** One checklist line: ✓ done (dimmed), ▸ in progress, ☐ pending. */
export function todoLine(item: TodoItem, width: number, indent = ""): string {
  const text = `${indent}${MARK[item.status]} ${sanitizeLine(item.content)}`;
  const style = item.status === "completed" ? theme.dim : item.status === "in_progress" ? theme.tool : (s: string) => s;
  return truncateLine(style(text), width);
}

/** The checklist as it is pinned above the input while a run goes. */
export function todoPanelLines(model: Model, width: number): string[] {
  if (!model.run || model.todos.length === 0) return [];
  const items = model.todos;
  if (items.length <= TODO_PANEL_MAX) return items.map((t) => todoLine(t, width, " "));
  // Too long to show whole: the items around the one in progress.
  const at = Math.max(
    0,
    items.findIndex((t) => t.status !== "completed"),
  );
  const first = Math.max(0, Math.min(at - 1, items.length - (TODO_PANEL_MAX - 1)));
  const shown = items.slice(first, first + TODO_PANEL_MAX - 1).map((t) => todoLine(t, width, " "));
  shown.push(theme.dim(` … ${items.length - shown.length} more`));
  return shown;
}
