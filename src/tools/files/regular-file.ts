// Reading a project file for the model (read_file, `@`): only a regular file, opened without
// blocking (a FIFO would hang the read, and the app with it) and without following a link swapped
// in, and not a hard link whose other names are outside the project.
import fs from "node:fs";
import { hardLinkNames } from "./links.js";

export type RegularFile =
  | {
      ok: true;
      buf: Buffer;
      /** A hard link whose other names could not all be found: treat as a secret. */ unsure: boolean;
    }
  | { ok: false; error: string };

export type OpenedFile =
  | {
      ok: true;
      handle: fs.promises.FileHandle;
      /** A hard link whose other names could not all be found: treat as a secret. */ unsure: boolean;
    }
  | { ok: false; error: string };

/** The file opened as readRegularFile opens it, for a caller that streams it (read-slice.ts); it closes the handle. */
export async function openRegularFile(abs: string, shown: string, root: string): Promise<OpenedFile> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch (err) {
    return { ok: false, error: `Error: cannot open ${shown}: ${(err as Error).message}` };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      const kind = stat.isFIFO()
        ? "a FIFO"
        : stat.isSocket()
          ? "a socket"
          : stat.isDirectory()
            ? "a folder"
            : "a device";
      await handle.close();
      return { ok: false, error: `Error: ${shown} is not a regular file (it is ${kind}); only files are read.` };
    }
    const names = hardLinkNames(abs, stat, root);
    if (names === "outside") {
      await handle.close();
      return {
        ok: false,
        error:
          `Error: ${shown} is a hard link, and ${stat.nlink - 1} other name(s) of the same file are outside the ` +
          `project: it is not read as the project's. Ask the user about it.`,
      };
    }
    return { ok: true, handle, unsure: names === "unknown" };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

export async function readRegularFile(abs: string, shown: string, root: string): Promise<RegularFile> {
  const opened = await openRegularFile(abs, shown, root);
  if (!opened.ok) return opened;
  try {
    return { ok: true, buf: await opened.handle.readFile(), unsure: opened.unsure };
  } finally {
    await opened.handle.close();
  }
}
