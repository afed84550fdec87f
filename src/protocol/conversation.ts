// Part of protocol/: plain data that crosses postMessage between the UI thread and the agent
// worker (structured-clone safe: no functions, no classes).

import type { PermissionMode } from "./run-config.js";

export type Role = "system" | "user" | "assistant" | "tool";

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** Provider-neutral message. Adapters map it to and from each wire format. */
export interface ConversationMessage {
  role: Role;
  content: string;
  thinking?: string;
  /** Anthropic: the signature of the thinking block, which must go back with it. */
  thinkingSignature?: string;
  toolCalls?: ToolCall[];
  /** role "tool": the call this answers. */
  toolCallId?: string;
  toolName?: string;
  /** An assistant answer cut short by the user (Esc) or a dropped connection. */
  interrupted?: boolean;
  /** role "user": when it was sent (ms since the epoch), for /rewind's list. Never sent to a model. */
  sentAt?: number;
  /** A user message that came from a skill or slash command: what the user typed. */
  typed?: string;
  /**
   * role "user", written by the loop: the permission mode the model was told it is in from here on.
   * A mode change goes into such a trailing message, never into the system prompt, so every
   * request stays a byte-identical prefix of the next and a local server's prompt cache holds.
   */
  mode?: PermissionMode;
  /** role "assistant": the tokens of the request that produced it (for the status line; never sent). */
  usage?: MessageUsage;
  /** role "tool": what the UI showed, so a resumed transcript looks as it did. Never sent to a model. */
  display?: ToolDisplay;
  /**
   * Images the message carries (role "tool": what an MCP tool returned), kept only when the model
   * reads images. `content` still describes each one, so a model without vision loses nothing.
   */
  images?: ImageAttachment[];
}

/** One image, base64 as a server sent it: stored once, in the message, never copied into text. */
export interface ImageAttachment {
  /** One of IMAGE_TYPES_FOR_MODELS. */
  mimeType: string;
  /** Base64, without a `data:` prefix. */
  data: string;
}

export interface MessageUsage {
  promptTokens: number;
  completionTokens: number;
}

/** What the UI shows for a tool call, built once by the tool runner. */
export interface ToolDisplay {
  label: string;
  ok: boolean;
  /** One line: "+3 -1", "exit 1 · 75 lines", an error's first line. */
  summary: string;
  /** What the tool printed (shell stdout/stderr with the exit code, a file, matches), shown on Ctrl+O. */
  output?: string;
  /** The output's language for syntax colour (e.g. "ts" for a file read), when known. */
  outputLang?: string;
  /** A unified diff, when the tool changed a file. */
  diff?: string;
  /** The file the diff belongs to (relative to the project). */
  path?: string;
}
