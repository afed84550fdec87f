// Deleting a saved session: its file, its /undo checkpoints and a stale lock. A session another
// live process is writing is left alone (the error names the process), so nothing is lost from
// under it; `agent0 sessions delete` and ACP's session/delete both come here.
import fs from "node:fs";
import { checkpointDirFor } from "./checkpoint-dir.js";
import { resolveSession, summarizeSession } from "./list.js";
import { currentOwner, lockHolder, lockPathFor } from "./lock.js";

export type Deleted = { ok: true; id: string; title: string } | { ok: false; error: string };

/** Deletes the session `idOrPrefix` names in `dir` (exact ids only when `exact`). */
export function deleteSession(dir: string, idOrPrefix: string, opts: { exact?: boolean } = {}): Deleted {
  const found = resolveSession(dir, idOrPrefix);
  if (!found.ok) return found;
  if (opts.exact && found.id !== idOrPrefix) return { ok: false, error: `No session has the id '${idOrPrefix}'.` };
  const holder = lockHolder(found.path);
  const me = currentOwner();
  if (holder && !(holder.pid === me.pid && holder.host === me.host))
    return {
      ok: false,
      error: `Session ${found.id} is open in another agent0 (pid ${holder.pid} on ${holder.host}): close it there first.`,
    };
  const summary = summarizeSession(found.path);
  try {
    fs.rmSync(found.path, { force: true });
    fs.rmSync(checkpointDirFor(found.path), { recursive: true, force: true });
    fs.rmSync(lockPathFor(found.path), { force: true });
  } catch (err) {
    return { ok: false, error: `Could not delete session ${found.id}: ${(err as Error).message}` };
  }
  return { ok: true, id: found.id, title: summary.ok ? summary.summary.title : "" };
}
