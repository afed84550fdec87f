// The session file's line format (DESIGN.md §3): a header line, then message, meta and reset lines.
import fs from "node:fs";
import { PERMISSION_MODES, type PermissionMode } from "../protocol/run-config.js";
import * as z from "zod";
import type { ConversationMessage } from "../protocol/conversation.js";
import { lazily } from "../context/lazily.js";

export const SESSION_VERSION = 1;

export interface SessionHeader {
  type: "session";
  version: number;
  id: string;
  /** ISO time. */
  created: string;
  cwd: string;
  provider: string;
  model: string;
  title: string;
  /** A fork: this session continues another one from a point of its file (see ForkPoint). */
  parent?: ForkPoint;
}

/**
 * Where a fork left its parent. The parent file is only ever appended to, so its first `bytes`
 * bytes stay what the fork saw: loading a fork replays exactly that prefix, whatever the parent
 * did later. `messages` is the parent's message count there, a check on the replay.
 */
export interface ForkPoint {
  id: string;
  bytes: number;
  messages: number;
}

/** What a `meta` line may change; the latest value wins on load. */
export interface SessionMeta {
  model?: string;
  provider?: string;
  title?: string;
  permissionMode?: PermissionMode;
}

const messageSchema = lazily(() =>
  z.looseObject({
    role: z.enum(["system", "user", "assistant", "tool"]),
    content: z.string(),
    thinking: z.string().optional(),
    toolCalls: z
      .array(z.object({ id: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()) }))
      .optional(),
    toolCallId: z.string().optional(),
    toolName: z.string().optional(),
    interrupted: z.boolean().optional(),
    typed: z.string().optional(),
    // A damaged image (not base64, say) is dropped; its message and the text describing it stay.
    images: z
      .array(z.object({ mimeType: z.string(), data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/) }))
      .optional()
      .catch(undefined),
  }),
);

const headerSchema = lazily(() =>
  z.object({
    type: z.literal("session"),
    version: z.number(),
    id: z.string(),
    created: z.string(),
    cwd: z.string(),
    provider: z.string(),
    model: z.string(),
    title: z.string(),
    parent: z.object({ id: z.string(), bytes: z.number(), messages: z.number() }).optional(),
  }),
);

export const lineSchema = lazily(() =>
  z.discriminatedUnion("type", [
    z.object({ type: z.literal("message"), at: z.string(), message: messageSchema() }),
    z.object({
      type: z.literal("meta"),
      at: z.string(),
      model: z.string().optional(),
      provider: z.string().optional(),
      title: z.string().optional(),
      permissionMode: z.enum(PERMISSION_MODES).optional(),
    }),
    /** "The conversation is now exactly these messages" — after /undo, /clear or compaction. */
    z.object({
      type: z.literal("reset"),
      at: z.string(),
      messages: z.array(messageSchema()),
      /** "rewind": /rewind set the earlier messages aside (they stay above, in the file). */
      reason: z.literal("rewind").optional(),
    }),
    /**
     * Text of an answer still streaming, saved every few seconds: each line holds what arrived since
     * the previous one (so a long answer costs O(1) per line). The next message or reset supersedes
     * them; partial lines left at the end of a file are an answer cut off by a crash.
     */
    z.object({ type: z.literal("partial"), at: z.string(), text: z.string(), thinking: z.string().optional() }),
  ]),
);

/** A session file's bytes and modification time, or why it cannot be read. */
export function readSessionBytes(
  file: string,
): { ok: true; bytes: Buffer; updated: number } | { ok: false; error: string } {
  try {
    return { ok: true, bytes: fs.readFileSync(file), updated: fs.statSync(file).mtimeMs };
  } catch (err) {
    return { ok: false, error: unreadable(file, (err as Error).message) };
  }
}

export function unreadable(file: string, why: string): string {
  return `${file}: not a readable agent0 session (${why})`;
}

/** Parses a header line; an error names the file. */
export function parseHeader(
  file: string,
  line: string,
): { ok: true; header: SessionHeader } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, error: unreadable(file, "header does not parse") };
  }
  const version = (value as { version?: unknown } | null)?.version;
  if (
    (value as { type?: unknown } | null)?.type === "session" &&
    typeof version === "number" &&
    version !== SESSION_VERSION
  ) {
    return { ok: false, error: unreadable(file, `unknown version ${version}`) };
  }
  const parsed = headerSchema().safeParse(value);
  if (!parsed.success) return { ok: false, error: unreadable(file, "header does not parse") };
  return { ok: true, header: parsed.data };
}

/** The title a session shows: set explicitly, else the first prompt as typed. */
export function firstPrompt(message: ConversationMessage): string {
  return (message.typed ?? message.content).replace(/\s+/g, " ").trim();
}

export type SessionLine = z.infer<ReturnType<typeof lineSchema>>;

export function parseLine(raw: string): SessionLine | undefined {
  try {
    const parsed = lineSchema().safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
