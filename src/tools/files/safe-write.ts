// The one way the file tools write. Between the check of a path and the write sits the approval
// dialog (seconds, minutes): a folder on the path may be swapped for a symlink out of the
// project meanwhile. So, after approval, the real path is resolved again and must be the one
// approved; the file is opened without following a final symlink (O_NOFOLLOW), and an existing
// file must still be the same file (device and inode) before a byte of it is changed.
import fs from "node:fs";
import path from "node:path";
import { resolveInside, type Workspace } from "./workspace.js";

export interface WriteTarget extends Workspace {
  /** The path as the model gave it, and the real path it resolved to when checked. */
  path: string;
  abs: string;
  /** The file as it was when checked; undefined for a new file. */
  before?: Pick<fs.Stats, "dev" | "ino">;
}

export type WriteOutcome = { ok: true } | { ok: false; error: string };

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;

export async function writeChecked(target: WriteTarget, bytes: Uint8Array): Promise<WriteOutcome> {
  const moved = `Error: ${target.path} moved or was replaced while waiting for approval; nothing was written. Check the path and try again.`;
  const again = resolveInside(target, target.path);
  if (!again.ok) return { ok: false, error: again.error };
  if (again.abs !== target.abs) return { ok: false, error: moved };
  if (!target.before) {
    await fs.promises.mkdir(path.dirname(target.abs), { recursive: true });
    // The folders just made (or found) must still lead where the check said.
    if (fs.realpathSync(path.dirname(target.abs)) !== path.dirname(target.abs)) {
      return { ok: false, error: moved };
    }
  }
  let handle: fs.promises.FileHandle;
  try {
    const flags = O_WRONLY | O_NOFOLLOW | (target.before ? 0 : O_CREAT | O_EXCL);
    handle = await fs.promises.open(target.abs, flags, 0o666);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return { ok: false, error: `Error: ${target.path} appeared while waiting for approval.` };
    if (code === "ELOOP" || code === "ENOENT" || code === "ENOTDIR") return { ok: false, error: moved };
    throw err;
  }
  try {
    const now = await handle.stat();
    if (target.before && (now.dev !== target.before.dev || now.ino !== target.before.ino)) {
      return { ok: false, error: moved };
    }
    // Truncate only now: the file was opened without O_TRUNC so a refusal above changes nothing.
    await handle.truncate(0);
    await handle.write(bytes, 0, bytes.length, 0);
    return { ok: true };
  } finally {
    await handle.close();
  }
}
