// /undo: the files the last turn changed restored from its checkpoint, and the conversation cut
// back to before that turn — for the TUI (cli/services.ts) and an editor session (cli/acp/).
import path from "node:path";
import type { ConversationMessage } from "../protocol/conversation.js";
import type { SessionRecorder } from "../session/recorder.js";
import { firstPrompt } from "../session/format.js";

export type UndoOutcome = { ok: false; text: string } | { ok: true; text: string; conversation: ConversationMessage[] };

export async function undoLastTurn(
  recorder: SessionRecorder,
  cwd: string,
  conversation: ConversationMessage[],
  force: boolean,
): Promise<UndoOutcome> {
  if (!recorder.started) return { ok: false, text: "Nothing to undo yet." };
  const rel = (p: string) => path.relative(cwd, p) || p;
  const { Checkpoints } = await import("../session/checkpoints.js");
  // This session's own checkpoints: another agent0 on the same project keeps its own.
  const result = await new Checkpoints(recorder.checkpointDir).undo({ force });
  if (!result) return { ok: false, text: "Nothing to undo." };
  if (!result.applied) {
    return {
      ok: false,
      text: `Not undone: ${result.conflicts.map(rel).join(", ")} changed outside agent0 since that turn. Type /undo force to overwrite ${result.conflicts.length === 1 ? "it" : "them"} anyway.`,
    };
  }
  const kept = conversation.slice(0, result.turn);
  recorder.reset(kept);
  // The title follows the conversation: the first prompt still in it (none: untitled).
  const first = kept.find((m) => m.role === "user");
  recorder.meta({ title: first ? firstPrompt(first) : "" });
  const lines = [
    `Undid the last turn${result.restored.length + result.removedCreated.length ? ":" : " (it changed no files)."}`,
    ...result.restored.map((p) => `  restored ${rel(p)}`),
    ...result.removedCreated.map((p) => `  removed ${rel(p)} (created in that turn)`),
  ];
  if (result.ranShell) lines.push("That turn ran shell commands; their effects cannot be undone.");
  return { ok: true, text: lines.join("\n"), conversation: kept };
}
