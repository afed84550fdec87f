// Part of protocol/: the user's turn as the TUI and a headless run both build it, by one rule.
import type { ConversationMessage, ImageAttachment } from "./conversation.js";

export interface UserTurn {
  /** What the model reads (a skill or an MCP prompt expanded, @files attached). */
  content: string;
  /** What the user typed, kept when it differs from the content (shown on resume). */
  typed?: string;
  /** Images of an MCP prompt or resource. */
  images?: ImageAttachment[];
}

/**
 * The user message saved and sent. Images are kept unless the model is known not to read them
 * (`seesImages` false): before the model is known the worker decides (protocol/vision.ts), and
 * `content` describes each image either way. `sentAt` (ms since the epoch, 0: unknown) dates it for
 * /rewind's list.
 */
export function userMessage(turn: UserTurn, seesImages: boolean | undefined, sentAt: number): ConversationMessage {
  const message: ConversationMessage = { role: "user", content: turn.content };
  if (sentAt > 0) message.sentAt = sentAt;
  if (turn.typed !== undefined && turn.typed !== turn.content) message.typed = turn.typed;
  if (turn.images?.length && seesImages !== false) message.images = turn.images;
  return message;
}
