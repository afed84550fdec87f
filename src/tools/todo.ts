// todo_write: the model keeps a checklist of its task (the whole list each call, like Claude
// Code's TodoWrite and opencode's todowrite). The UI shows it from the call's arguments; the list
// lives in the conversation, so a resumed session has it back. It changes nothing: never asks.
import * as z from "zod";
import { defineTool, type ToolResult } from "./types.js";

const schema = () => {
  const todo = z.object({
    content: z.string().min(1).describe("The step, as a short imperative sentence."),
    status: z.enum(["pending", "in_progress", "completed"]),
  });
  return z.object({
    todos: z.array(todo).describe("The whole list, in order: every item, not only the changed ones."),
  });
};

const MARK = { completed: "[x]", in_progress: "[>]", pending: "[ ]" } as const;

export const todoWriteTool = defineTool({
  name: "todo_write",
  description:
    "Keep a todo list for a task of three or more steps: write the whole list (every item, in order) " +
    "at the start, and again each time an item starts (in_progress, one at a time) or is done (completed). " +
    "The user sees it as a checklist. Skip it for simple one- or two-step requests.",
  schema,
  readOnly: true,
  concurrentSafe: false,
  label: () => "update the todo list",
  run(args): ToolResult {
    const done = args.todos.filter((t) => t.status === "completed").length;
    const active = args.todos.filter((t) => t.status === "in_progress");
    const lines = args.todos.map((t) => `${MARK[t.status]} ${t.content}`);
    const next =
      done === args.todos.length
        ? "All items are completed."
        : active.length > 1
          ? "Keep only one item in_progress at a time."
          : "Carry on with the item in progress; update the list when it is done.";
    return {
      content: `Todo list updated (${done}/${args.todos.length} completed):\n${lines.join("\n")}\n${next}`,
      summary: `${done}/${args.todos.length} done`,
    };
  },
});
