// The list a todo_write call carries, read from its arguments (live, and from a saved conversation).
import type { TodoItem } from "../steer-types.js";

export const TODO_TOOL = "todo_write";
const STATUSES: ReadonlySet<string> = new Set(["pending", "in_progress", "completed"]);

/** The list in a todo_write call's arguments; null when they are not a valid list. */
export function parseTodos(args: unknown): TodoItem[] | null {
  const todos = (args as { todos?: unknown } | null)?.todos;
  if (!Array.isArray(todos)) return null;
  const items: TodoItem[] = [];
  for (const t of todos) {
    const { content, status } = (t ?? {}) as { content?: unknown; status?: unknown };
    if (typeof content !== "string" || typeof status !== "string" || !STATUSES.has(status)) return null;
    items.push({ content, status: status as TodoItem["status"] });
  }
  return items;
}
