// A saved session read for the first frame of `--resume`, `--session` or `--continue`: the
// conversation only, without its lock or writer (main resumes it properly a moment later, and
// the transcript it rebuilds is the same). Never throws: no frame is worth a crash.
import type { ConversationMessage } from "../protocol/conversation.js";
import { pairToolResults } from "../protocol/history.js";
import { latestSessionFor, resolveSession } from "./list.js";
import { loadSession, type SessionRead } from "./load.js";

export interface PeekFlags {
  resume?: string;
  session?: string;
  continue?: boolean;
}

/** What the first frame shows of a saved session, and the file as read (for the next reader). */
export interface Peeked {
  conversation: ConversationMessage[];
  model?: string;
  read: SessionRead;
}

/** `known`: the file as an earlier peek read it, taken again if the file has not changed since. */
export function peekSession(flags: PeekFlags, dir: string, cwd: string, known?: SessionRead): Peeked | undefined {
  try {
    const id = flags.resume ?? flags.session;
    if (!id && !flags.continue) return undefined;
    const file = id ? resolveSession(dir, id) : { ok: true as const, path: latestSessionFor(dir, cwd)?.path };
    if (!file.ok || !file.path) return undefined;
    const loaded = loadSession(file.path, known);
    if (!loaded.ok) return undefined;
    return {
      conversation: pairToolResults(loaded.messages),
      model: loaded.meta.model ?? loaded.header.model,
      read: { path: file.path, loaded },
    };
  } catch {
    return undefined;
  }
}
