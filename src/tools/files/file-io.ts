// Where the file tools' bytes come from and go: the disk, or the client's editor when it offers
// its file system (ToolContext.files). Path rules hold either way: the path is checked (and, for
// a write after approval, checked again) before the client is asked.
import fs from "node:fs";
import type { ClientFiles, ToolContext } from "../types.js";
import { resolveInside } from "./workspace.js";
import type { WriteOutcome, WriteTarget } from "./safe-write.js";

/** The file's bytes as the model should see them: the editor's buffer when it has one. */
export async function readBytes(ctx: Pick<ToolContext, "files">, abs: string): Promise<Buffer> {
  if (ctx.files?.read) return Buffer.from(await ctx.files.read(abs), "utf8");
  return fs.promises.readFile(abs);
}

/**
 * A file the disk has vouched for (a regular file of the project, regular-file.ts) as the model
 * should see it: the editor's buffer when it has one, else the bytes already read.
 */
export async function bufferOr(ctx: Pick<ToolContext, "files">, abs: string, disk: Buffer): Promise<Buffer> {
  return ctx.files?.read ? Buffer.from(await ctx.files.read(abs), "utf8") : disk;
}

/**
 * Writes the text through the editor (which saves it in the file's own encoding), once the path
 * still leads where it was approved to.
 */
export async function writeThroughClient(
  write: NonNullable<ClientFiles["write"]>,
  target: WriteTarget,
  text: string,
): Promise<WriteOutcome> {
  const again = resolveInside(target, target.path);
  if (!again.ok) return { ok: false, error: again.error };
  if (again.abs !== target.abs) {
    return {
      ok: false,
      error: `Error: ${target.path} moved or was replaced while waiting for approval; nothing was written. Check the path and try again.`,
    };
  }
  try {
    await write(target.abs, text);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: `Error: the editor could not write ${target.path}: ${(err as Error).message}` };
  }
}
