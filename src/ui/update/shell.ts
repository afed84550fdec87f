// `!command`: the user's own shell command. It runs in the project folder without approval
// (the user typed it), its output shows in the transcript and joins the conversation as context
// for the next prompt — no model call of its own.
import type { Model } from "../model.js";
import type { Cmd } from "../msg.js";
import type { ConversationMessage } from "../../protocol/conversation.js";
import { addEntry } from "./transcript.js";

export function startShell(model: Model, line: string, cmds: Cmd[]): void {
  const command = line.slice(1).trim();
  const notice = (text: string) => addEntry(model, { kind: "notice", level: "warn", text });
  if (!command) return notice("Type a shell command after the !, e.g. !git status");
  if (model.run || model.shell) return notice("Wait for the current run to end (or press Esc) first.");
  model.shell = { command, startedAt: model.now };
  model.anchor = null;
  addEntry(model, { kind: "shell", command, output: "", exitCode: null, running: true });
  cmds.push({ type: "shell", command });
}

/** What the model reads: the command, its (already truncated) output and exit code. */
export function shellContext(command: string, output: string, exitCode: number | null): string {
  const status = exitCode === null ? "killed or timed out" : `exit code ${exitCode}`;
  return `I ran this shell command myself; its output is context for what I ask next.\n$ ${command}\n${output || "(no output)"}\n[${status}]`;
}

export function finishShell(model: Model, command: string, output: string, exitCode: number | null, cmds: Cmd[]): void {
  model.shell = null;
  for (let i = model.entries.length - 1; i >= 0; i--) {
    const e = model.entries[i]!;
    if (e.kind === "shell" && e.running) {
      Object.assign(e, { output, exitCode, running: false });
      break;
    }
  }
  const message: ConversationMessage = {
    role: "user",
    content: shellContext(command, output, exitCode),
    typed: `!${command}`,
  };
  model.conversation.push(message);
  cmds.push({ type: "session-append", message });
}
