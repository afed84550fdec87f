// Loading a session file: replay its lines into a conversation. A fork replays its parent's
// file up to the fork point first. Damage is reported (line numbers), never hidden or repaired.
import fs from "node:fs";
import path from "node:path";
import type { ConversationMessage } from "../protocol/conversation.js";
import { tokensOf } from "../protocol/usage.js";
import {
  firstPrompt,
  parseHeader,
  parseLine,
  readSessionBytes,
  type ForkPoint,
  type SessionHeader,
  type SessionMeta,
} from "./format.js";

export type LoadedSession =
  | {
      ok: true;
      header: SessionHeader;
      messages: ConversationMessage[];
      /** Header values overlaid with every meta line; title falls back to the first prompt. */
      meta: Required<Pick<SessionMeta, "model" | "provider" | "title">> & Pick<SessionMeta, "permissionMode">;
      /** File mtime, ms. */
      updated: number;
      /** How many bytes of the file were replayed. */
      bytes: number;
      /** 1-based line numbers of this file's lines that could not be read and were left out. */
      damaged: number[];
      /** The last message is an answer that was still streaming when the app stopped (crash, kill). */
      cutOff: boolean;
      /** Why the parent's history could not be replayed (a fork whose parent is gone or changed). */
      parentError?: string;
      /** Tokens every saved request used, including turns later undone, cleared or compacted. */
      tokensUsed: number;
    }
  | { ok: false; error: string };

type Meta = Extract<LoadedSession, { ok: true }>["meta"];

/**
 * A session file as one reader loaded it: a later reader of the same file, unchanged since (its
 * size and mtime), takes this instead of reading and parsing it again. A `--resume` launch reads
 * the file once, for its first frame, and main and the resume itself go on with that.
 */
export interface SessionRead {
  path: string;
  loaded: Extract<LoadedSession, { ok: true }>;
}

/** Forks of forks are followed this deep (a cycle of hand-edited headers must not loop). */
const MAX_FORK_DEPTH = 32;

export function loadSession(file: string, known?: SessionRead): LoadedSession {
  if (known && known.path === file && unchangedSince(file, known.loaded)) return known.loaded;
  return loadUpTo(file, undefined, 0);
}

/** The file is still the one `loaded` replayed whole (a session file is only ever appended to). */
function unchangedSince(file: string, loaded: SessionRead["loaded"]): boolean {
  try {
    const stat = fs.statSync(file);
    return stat.size === loaded.bytes && stat.mtimeMs === loaded.updated;
  } catch {
    return false;
  }
}

/** The session as its first `bytes` bytes tell it (the file is only ever appended to). */
export function loadSessionPrefix(file: string, bytes: number): LoadedSession {
  return loadUpTo(file, bytes, 0);
}

function loadUpTo(file: string, limit: number | undefined, depth: number): LoadedSession {
  const read = readSessionBytes(file);
  if (!read.ok) return read;
  const { updated } = read;
  const bytes = limit === undefined ? read.bytes : read.bytes.subarray(0, limit);
  const text = bytes.toString("utf8");
  const lines = text.split("\n");
  const head = parseHeader(file, lines[0] ?? "");
  if (!head.ok) return head;
  const { header } = head;
  let messages: ConversationMessage[] = [];
  let parentError: string | undefined;
  let tokensUsed = 0;
  if (header.parent) {
    const base = loadParent(path.dirname(file), header.parent, depth);
    if (base.ok) {
      messages = base.messages;
      tokensUsed = base.tokensUsed;
    } else parentError = base.error;
  }
  const meta: Meta = { model: header.model, provider: header.provider, title: header.title };
  const damaged: number[] = [];
  // Text of an answer that was streaming: superseded by the next message or reset line.
  let partial: { text: string; thinking: string } | undefined;
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === "") continue;
    const line = parseLine(raw);
    if (!line) {
      damaged.push(i + 1);
      continue;
    }
    switch (line.type) {
      case "message":
        partial = undefined;
        messages.push(line.message as ConversationMessage);
        tokensUsed += tokensOf(line.message as ConversationMessage);
        break;
      case "reset":
        partial = undefined;
        messages = line.messages as ConversationMessage[];
        break;
      case "partial":
        partial ??= { text: "", thinking: "" };
        partial.text += line.text;
        partial.thinking += line.thinking ?? "";
        break;
      case "meta":
        if (line.model !== undefined) meta.model = line.model;
        if (line.provider !== undefined) meta.provider = line.provider;
        if (line.title !== undefined) meta.title = line.title;
        if (line.permissionMode !== undefined) meta.permissionMode = line.permissionMode;
        break;
    }
  }
  if (partial) messages.push(cutOffAnswer(partial));
  if (!meta.title) {
    const first = messages.find((m) => m.role === "user");
    if (first) meta.title = firstPrompt(first);
  }
  return {
    ok: true,
    header,
    messages,
    meta,
    updated,
    bytes: bytes.length,
    damaged,
    cutOff: partial !== undefined,
    tokensUsed,
    ...(parentError ? { parentError } : {}),
  };
}

/** The streamed text of an answer the app never finished saving, as the interrupted answer it is. */
export function cutOffAnswer(partial: { text: string; thinking: string }): ConversationMessage {
  const message: ConversationMessage = { role: "assistant", content: partial.text, interrupted: true };
  if (partial.thinking) message.thinking = partial.thinking;
  return message;
}

function loadParent(
  dir: string,
  parent: ForkPoint,
  depth: number,
): { ok: true; messages: ConversationMessage[]; tokensUsed: number } | { ok: false; error: string } {
  if (depth >= MAX_FORK_DEPTH) return { ok: false, error: `forks nest deeper than ${MAX_FORK_DEPTH}` };
  if (parent.id.includes("/") || parent.id.includes("\\")) return { ok: false, error: "bad parent id" };
  const loaded = loadUpTo(path.join(dir, `${parent.id}.jsonl`), parent.bytes, depth + 1);
  if (!loaded.ok) return { ok: false, error: `its parent session ${parent.id} is unreadable (${loaded.error})` };
  if (loaded.messages.length !== parent.messages) {
    return { ok: false, error: `its parent session ${parent.id} no longer holds the history it forked from` };
  }
  return { ok: true, messages: loaded.messages, tokensUsed: loaded.tokensUsed };
}

/** "2 damaged lines skipped in session 3f2a…: lines 14, 15" (undefined when there are none). */
export function damageReport(id: string, damaged: number[]): string | undefined {
  if (damaged.length === 0) return undefined;
  const shown = damaged.slice(0, 10).join(", ") + (damaged.length > 10 ? ", …" : "");
  const n = damaged.length;
  return `${n} damaged line${n === 1 ? "" : "s"} skipped in session ${id.slice(0, 8)}: line${n === 1 ? "" : "s"} ${shown} (the file is left as it is).`;
}
