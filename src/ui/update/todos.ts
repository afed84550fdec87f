// The model's todo list (todo_write): the latest list is kept in the model, pinned above the
// input while a run goes, and shown in the transcript each time it changes. The list lives in
// the conversation (the tool call's arguments), so a resumed session gets it back from there.
import type { ConversationMessage } from "../../protocol/conversation.js";
import type { Model } from "../model.js";
import { addEntry } from "./transcript.js";
import { parseTodos, TODO_TOOL } from "./todo-items.js";
import type { TodoItem } from "../steer-types.js";

/** A todo_write call started: the new list replaces the old one. */
export function applyTodoCall(model: Model, args: unknown): void {
  const items = parseTodos(args);
  if (!items) return;
  model.todos = items;
  addEntry(model, { kind: "todos", items });
}

/** The last list written in a conversation (resume). */
export function lastTodos(conversation: readonly ConversationMessage[]): TodoItem[] {
  for (let i = conversation.length - 1; i >= 0; i--) {
    const calls = conversation[i]!.toolCalls ?? [];
    for (let k = calls.length - 1; k >= 0; k--) {
      if (calls[k]!.name !== TODO_TOOL) continue;
      const items = parseTodos(calls[k]!.args);
      if (items) return items;
    }
  }
  return [];
}
