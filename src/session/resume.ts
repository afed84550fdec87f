// Opening a saved session to go on with it: resolve the id, take the file's lock (or fork when
// another agent0 holds it), load the history, and say what was found (damage, a cut-off answer).
import fs from "node:fs";
import os from "node:os";
import { randomId } from "./random-id.js";
import { pairToolResults } from "../protocol/history.js";
import { resolveSession } from "./list.js";
import { damageReport, loadSession, loadSessionPrefix, type SessionRead } from "./load.js";
import { SessionWriter } from "./writer.js";
import { acquireLock } from "./lock.js";
import type { Adopted, Line } from "./recorder.js";

export type Resumed =
  { ok: true; session: Adopted; notices: string[]; tokensUsed: number } | { ok: false; error: string };

/** `known`: the session's file as the first frame read it (used again if the file is unchanged). */
export function resumeSession(dir: string, idOrPrefix: string, env?: NodeJS.ProcessEnv, known?: SessionRead): Resumed {
  const resolved = resolveSession(dir, idOrPrefix);
  if (!resolved.ok) return resolved;
  const short = resolved.id.slice(0, 8);
  let locked;
  try {
    locked = acquireLock(resolved.path);
  } catch {
    locked = undefined; // the lock cannot be written (a full or read-only disk): saving will say so
  }
  const forked = locked !== undefined && !locked.ok;
  // A fork replays the file as it is now; the other process may append meanwhile, so the fork
  // point is the end of the last complete line read.
  const loaded = forked
    ? loadSessionPrefix(resolved.path, completeLinesSize(resolved.path))
    : loadSession(resolved.path, known);
  if (!loaded.ok) {
    if (locked?.ok) locked.lock.release();
    return { ok: false, error: loaded.error };
  }
  const notices: string[] = [];
  const damage = damageReport(resolved.id, loaded.damaged);
  if (damage) notices.push(damage);
  if (loaded.parentError)
    notices.push(`Session ${short} is a fork, and ${loaded.parentError}: only its own messages are shown.`);
  if (loaded.cutOff)
    notices.push("The last answer was cut off when agent0 stopped; what had arrived is shown, marked interrupted.");
  // A crash mid-step can leave a tool call without its result: fill it in, right after the call,
  // and save that, so the transcript shows the tool as stopped and the history is valid.
  const conversation = pairToolResults(loaded.messages);
  const repair: Line[] =
    conversation !== loaded.messages
      ? [{ kind: "reset", messages: conversation }]
      : loaded.cutOff
        ? [{ kind: "message", message: conversation.at(-1)! }]
        : [];
  const model = loaded.meta.model ?? loaded.header.model;
  if (forked) {
    const id = randomId();
    const owner = locked && !locked.ok ? locked.owner : undefined;
    notices.unshift(
      `Session ${short} is open in another agent0 (pid ${owner?.pid}${owner && owner.host !== os.hostname() ? ` on ${owner.host}` : ""}); continuing as new session ${id.slice(0, 8)}.`,
    );
    const parent = { id: resolved.id, bytes: loaded.bytes, messages: loaded.messages.length };
    return { ok: true, notices, session: { id, parent, conversation, model, repair }, tokensUsed: loaded.tokensUsed };
  }
  try {
    const writer = SessionWriter.open(dir, resolved.id, { env });
    const session: Adopted = { id: writer.id, writer, conversation, model, repair };
    if (locked?.ok) session.lock = locked.lock;
    return { ok: true, notices, session, tokensUsed: loaded.tokensUsed };
  } catch (err) {
    if (locked?.ok) locked.lock.release();
    return { ok: false, error: (err as Error).message };
  }
}

function completeLinesSize(file: string): number {
  try {
    const bytes = fs.readFileSync(file);
    return bytes.lastIndexOf(10) + 1;
  } catch {
    return 0;
  }
}
