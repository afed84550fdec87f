// /undo and /rewind: the files of the turns given up restored from their checkpoints, and the
// conversation cut back to before them — for the TUI (cli/services.ts) and an editor session
// (cli/hosted-session.ts). The session file keeps what came before (append-only).
import path from "node:path";
import type { ConversationMessage } from "../protocol/conversation.js";
import type { RewindRestore } from "../ui/model.js";
import type { SessionRecorder } from "../session/recorder.js";
import type { UndoResult } from "../session/checkpoints.js";
import { firstPrompt } from "../session/format.js";

export type UndoOutcome = { ok: false; text: string } | { ok: true; text: string; conversation: ConversationMessage[] };

/** The conversation is now `kept` (the file keeps what came before); the title follows it. */
function keepConversation(
  recorder: SessionRecorder,
  kept: ConversationMessage[],
  reason?: "rewind",
): ConversationMessage[] {
  recorder.reset(kept, reason);
  // The title follows the conversation: the first prompt still in it (none: untitled).
  const first = kept.find((m) => m.role === "user");
  recorder.meta({ title: first ? firstPrompt(first) : "" });
  return kept;
}

/** What a restore did, one line per file. */
function restoredLines(cwd: string, head: string, result: UndoResult, none: string): string[] {
  const rel = (p: string) => path.relative(cwd, p) || p;
  const lines = [
    `${head}${result.restored.length + result.removedCreated.length ? ":" : ` (${none}).`}`,
    ...result.restored.map((p) => `  restored ${rel(p)}`),
    ...result.removedCreated.map((p) => `  removed ${rel(p)} (created in that turn)`),
  ];
  if (result.ranShell) lines.push("That turn ran shell commands; their effects cannot be undone.");
  return lines;
}

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
  const kept = keepConversation(recorder, conversation.slice(0, result.turn));
  return {
    ok: true,
    text: restoredLines(cwd, "Undid the last turn", result, "it changed no files").join("\n"),
    conversation: kept,
  };
}

/**
 * /rewind to before the user message at `turn`: its files as they were (code), the conversation
 * cut before it (conversation), or both. `conflicts`: files changed outside agent0 since, when not
 * `force` (nothing was touched).
 */
export async function rewindToMessage(
  recorder: SessionRecorder,
  cwd: string,
  conversation: ConversationMessage[],
  turn: number,
  restore: RewindRestore,
  force: boolean,
): Promise<{ ok: boolean; text: string; conversation?: ConversationMessage[]; conflicts?: string[] }> {
  const rel = (p: string) => path.relative(cwd, p) || p;
  const lines: string[] = [];
  if (restore !== "conversation") {
    const { Checkpoints } = await import("../session/checkpoints.js");
    const result = recorder.started
      ? await new Checkpoints(recorder.checkpointDir).rewindTo(turn, { force })
      : undefined;
    if (result && !result.applied) return { ok: false, text: "", conflicts: result.conflicts.map(rel) };
    if (result)
      lines.push(...restoredLines(cwd, "Rewound the files", result, "no file was changed since that message"));
    else lines.push("Rewound the files (no file was changed since that message).");
  }
  if (restore === "code") return { ok: true, text: lines.join("\n") };
  // Append-only: the rewound turns stay in the session file before this reset line.
  const kept = keepConversation(recorder, conversation.slice(0, turn), "rewind");
  lines.unshift(
    `Rewound the conversation to before that message (${conversation.length - turn} messages set aside; they stay in the session file).`,
  );
  return { ok: true, text: lines.join("\n"), conversation: kept };
}
