import type { ImageAttachment } from "../../protocol/conversation.js";
import { plain } from "./plain.js";
import { userMessage } from "../../protocol/user-message.js";
import { turnMessages } from "../../protocol/mode-notes.js";
import type { Model } from "../model.js";
import type { Cmd } from "../msg.js";
import type { Phase } from "../../protocol/agent-event.js";
import { addEntry, typedNote } from "./transcript.js";
import { expandMentions } from "./mcp.js";

export interface Prompt {
  content: string;
  /** What the user typed, when it was expanded from a skill. */
  typed?: string;
  /** allowed-tools of the skill, enforced for this run. */
  toolFilter?: string[];
  /** Shown under the message (default for a typed skill: "expanded skill"). */
  note?: string;
  /** Images of an MCP prompt or resource; `content` describes each, so they are kept only for a model that reads them. */
  images?: ImageAttachment[];
}

/** Sends a user message to the agent: shown, saved, and run with the whole conversation. */
export function startRun(model: Model, prompt: Prompt | string, cmds: Cmd[]): void {
  // @server:uri mentions: the worker reads the resources first (mcp-expanded starts the run).
  if (typeof prompt === "string" && expandMentions(model, prompt, cmds)) return;
  const p: Prompt = typeof prompt === "string" ? { content: prompt } : prompt;
  const message = userMessage(p, model.config.seesImages, model.now);
  // A mode changed since the last turn (Shift+Tab, or --permission-mode at start) is told first.
  const turn = turnMessages(model.conversation, model.config.permissionMode, message);
  model.conversation.push(...turn);
  addEntry(model, {
    kind: "user",
    text: p.typed ?? p.content,
    note: p.note ?? (p.typed ? typedNote(p.typed) : undefined),
  });
  model.stats.turns++;
  model.planReady = false;
  const runId = beginRun(model, "loading");
  model.anchor = null;
  for (const m of turn) cmds.push({ type: "session-append", message: m });
  const config = { ...plain(model.config), interactive: true };
  // A skill's list comes from the Model (a draft here, revoked once update returns): copied as plain
  // data, or postMessage fails ("null could not be cloned") and the run never starts. It only
  // narrows the tools; approvals and plan mode still decide what runs.
  if (p.toolFilter) config.toolFilter = [...plain(p.toolFilter)];
  else delete config.toolFilter;
  cmds.push({ type: "worker", command: { type: "run", runId, conversation: plain(model.conversation), config } });
}

/** The run (or compaction) that events must name from now on. */
export function beginRun(model: Model, phase: Phase): number {
  const id = model.nextRunId++;
  model.run = { id, startedAt: model.now, phase };
  model.runFailed = false;
  return id;
}

/** Stops the run going on (the worker drops a cancel for a run that has ended). */
export function cancelRun(model: Model, cmds: Cmd[]): void {
  if (model.run) cmds.push({ type: "worker", command: { type: "cancel", runId: model.run.id } });
}
