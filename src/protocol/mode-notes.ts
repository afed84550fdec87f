// Part of protocol/: what the model is told about the permission mode, and where. A mode change is
// a message of its own in the conversation (never a rewrite of the system prompt, so the prompt
// cache stays whole), placed before the user's next message (issue 43: the user's request is the
// last thing the model reads), or at a step boundary when the mode changes during a run. Every
// driver (the TUI, `-p`, a hosted session) builds a turn with `turnMessages`; the loop adds a note
// only for a change during the run.
import type { ConversationMessage } from "./conversation.js";
import type { PermissionMode } from "./run-config.js";

export const PLAN_MODE_PROMPT =
  "# Plan mode\nYou are in plan mode. Explore with read-only tools only (read, list, glob, grep, web, " +
  "todo_write); do not change files or run shell commands — such calls are refused. When you know " +
  "enough, answer with a concise, numbered plan of the changes you would make. The user approves it " +
  "before anything is changed.";

/** Told when the user leaves plan mode, so the model knows its plan may now be carried out. */
export const PLAN_MODE_OFF =
  "# Plan mode is off\nYou may now change files and run commands again (the usual permission rules apply).";

/**
 * The mode the conversation last told the model (the latest message with `mode`); none: not told,
 * which is the same as not in plan mode.
 */
export function toldMode(conversation: readonly ConversationMessage[]): PermissionMode | undefined {
  for (let i = conversation.length - 1; i >= 0; i--) {
    const m = conversation[i]!;
    if (m.mode) return m.mode;
  }
  return undefined;
}

/**
 * The message that tells the model about a change into or out of plan mode, when the mode now
 * differs from what it was told; undefined when nothing changed for the model.
 */
export function modeReminder(
  conversation: readonly ConversationMessage[],
  mode: PermissionMode,
): ConversationMessage | undefined {
  const told = toldMode(conversation);
  const wasPlan = told === "plan";
  if ((mode === "plan") === wasPlan) return undefined;
  return { role: "user", content: mode === "plan" ? PLAN_MODE_PROMPT : PLAN_MODE_OFF, mode };
}

/**
 * The messages a user's turn adds to the conversation: the mode note, when the mode differs from
 * what the model was told, and then the user's message — last, so it is what the model answers.
 */
export function turnMessages(
  conversation: readonly ConversationMessage[],
  mode: PermissionMode,
  user: ConversationMessage,
): ConversationMessage[] {
  const note = modeReminder(conversation, mode);
  return note ? [note, user] : [user];
}
