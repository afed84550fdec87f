// A line the user sent goes where it belongs: a slash command, a shell command, a prompt (its
// @mentions read first), or the queue while something is going.
import type { Model } from "../model.js";
import type { Cmd } from "../msg.js";
import { startRun } from "./run.js";
import { addEntry } from "./transcript.js";
import { runSlash } from "./slash.js";
import { startShell } from "./shell.js";
import { isShellLine } from "../layout/input.js";
import { fileMentionsIn } from "../../context/mention-parse.js";
import { runningServers } from "./mcp.js";

/**
 * A line the user sent: a slash command or skill, or a prompt. During a run a prompt steers it
 * (it reaches the model at the next step), or waits for the run's end (`afterRun`, Alt+Enter).
 */
export function submitLine(model: Model, text: string, cmds: Cmd[], afterRun = false): void {
  if (text.trimStart().startsWith("/")) return runSlash(model, text.trim(), cmds);
  if (isShellLine(text)) return startShell(model, text, cmds);
  if (model.run && !afterRun && model.steerOnEnter && steerRun(model, model.run.id, text, cmds)) return;
  if (model.run || model.shell || model.attaching !== null) {
    // Shown above the input until it is sent (layout/pinned.ts); Up on an empty input takes it back.
    model.queued.push(text);
    return;
  }
  // `@server:uri` of a running MCP server is a resource the worker reads; the rest are files.
  const files = fileMentionsIn(text, runningServers(model.mcp));
  if (files.length > 0) {
    // The files are read by a Cmd; the line is sent when they arrive (mentions-read).
    model.attaching = text;
    cmds.push({ type: "read-mentions", text, mentions: files });
    return;
  }
  startRun(model, text, cmds);
}

/**
 * Sends a message typed during run `runId` to the worker: the loop gives it to the model at its
 * next step boundary (after the running tool), and the transcript shows it there (`steered`). A
 * message naming files waits for the run's end instead: its files are read when it is sent.
 */
function steerRun(model: Model, runId: number, text: string, cmds: Cmd[]): boolean {
  if (fileMentionsIn(text, runningServers(model.mcp)).length > 0) return false;
  const id = ++model.steerSeq;
  model.steering.push({ id, text });
  cmds.push({ type: "worker", command: { type: "steer", runId, id, message: { role: "user", content: text } } });
  addEntry(model, {
    kind: "notice",
    level: "info",
    text: "Sent: the model reads it at its next step (Esc stops the run and brings it back; Alt+Enter waits for the end instead).",
  });
  return true;
}

/**
 * When nothing is going any more (a run or a shell command ended), the next queued line is sent,
 * as if typed now: its @mentions are read first.
 */
export function sendQueued(model: Model, cmds: Cmd[]): void {
  if (!model.booted || model.run || model.shell || model.attaching !== null) return;
  const next = model.queued.shift();
  if (next !== undefined) submitLine(model, next, cmds);
}
