import type { ConversationMessage } from "../core/events.js";
import { current, isDraft } from "immer";
import type { Model } from "./model.js";
import type { Cmd } from "./msg.js";
import { addEntry, streamingEntry } from "./transcript.js";

export interface Prompt {
  content: string;
  /** What the user typed, when it was expanded from a skill. */
  typed?: string;
  /** allowed-tools of the skill, enforced for this run. */
  toolFilter?: string[];
}

/**
 * Before boot-ready the model is main's provisional one: no session, no system prompt, no resumed
 * conversation yet. A prompt typed then waits in the conversation; boot-ready sends it.
 */
export function booting(model: Model): boolean {
  return model.sessionId === "";
}

/** Sends a user message to the agent: shown, saved, and run with the whole conversation. */
export function startRun(model: Model, prompt: Prompt | string, cmds: Cmd[]): void {
  const p: Prompt = typeof prompt === "string" ? { content: prompt } : prompt;
  const message: ConversationMessage = { role: "user", content: p.content };
  if (p.typed) message.typed = p.typed;
  model.conversation.push(message);
  // A new turn: an answer still marked streaming (a stray event after its run) is over.
  const stale = streamingEntry(model);
  if (stale) stale.streaming = false;
  addEntry(model, { kind: "user", text: p.typed ?? p.content, note: p.typed ? "expanded skill" : undefined });
  model.run = { startedAt: model.now, phase: "loading" };
  model.scroll = 0;
  if (booting(model)) return;
  cmds.push({ type: "session-append", message });
  sendRun(model, cmds, p.toolFilter);
}

/** The run Cmd: the whole conversation, with the session's settings. */
export function sendRun(model: Model, cmds: Cmd[], toolFilter?: string[]): void {
  const config = { ...plain(model.config), interactive: true };
  if (toolFilter) config.toolFilter = toolFilter;
  else delete config.toolFilter;
  cmds.push({ type: "run", conversation: plain(model.conversation), config });
}

/** Cmds leave immer's produce: they must hold plain values, never drafts (revoked afterwards). */
export function plain<T>(value: T): T {
  return isDraft(value) ? (current(value as never) as T) : value;
}
