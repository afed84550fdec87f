// What a failed save says (the cause in words, with the system's code) and the copy that keeps the
// conversation when the session file cannot: a new session file in the system's temp folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ConversationMessage } from "../protocol/conversation.js";
import { SESSION_VERSION } from "./format.js";
import { maskedJson } from "./masked-json.js";
import { randomId } from "./random-id.js";
import { SaveError } from "./writer.js";

const CAUSES: Record<string, string> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EIO: "an I/O error",
  EMFILE: "too many open files",
};

/** "the disk is full (ENOSPC)": what happened, in words, with the system's code. */
export function describeError(err: unknown): string {
  const code = err instanceof SaveError ? err.code : (err as NodeJS.ErrnoException | undefined)?.code;
  if (code && CAUSES[code]) return `${CAUSES[code]} (${code})`;
  return (err as Error)?.message ?? String(err);
}

export function failureText(reason: string): string {
  return `Could not save the session: ${reason} — the conversation continues in memory; nothing is lost while agent0 stays open.`;
}

/** The session that could not be saved: its header's fields and the whole conversation. */
export interface Unsaved {
  id: string;
  fields: { cwd: string; provider: string; model: string };
  conversation: ConversationMessage[];
  env: NodeJS.ProcessEnv;
}

/** Writes the whole conversation to a new session file in the temp folder, masked, never over another file. */
export function emergencyCopy(unsaved: Unsaved): { ok: true; path: string; id: string } | { ok: false; error: string } {
  const id = randomId();
  const file = path.join(os.tmpdir(), `agent0-unsaved-${id}.jsonl`);
  const { fields } = unsaved;
  const at = new Date().toISOString();
  const header = {
    type: "session",
    version: SESSION_VERSION,
    id,
    created: at,
    cwd: fields.cwd,
    provider: fields.provider,
    model: fields.model,
    title: `copy of ${unsaved.id.slice(0, 8)}`,
  };
  const reset = { type: "reset", at, messages: unsaved.conversation };
  try {
    fs.writeFileSync(file, `${maskedJson(header, unsaved.env)}\n${maskedJson(reset, unsaved.env)}\n`, {
      flag: "wx",
      mode: 0o600,
    });
    return { ok: true, path: file, id };
  } catch (err) {
    fs.rmSync(file, { force: true });
    return { ok: false, error: describeError(err) };
  }
}
