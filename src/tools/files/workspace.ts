// File tools only work inside the project folder. Paths are compared after resolving
// symlinks, so a link pointing out of the project cannot be used to read or write outside it.
import fs from "node:fs";
import path from "node:path";

import { isInside, realpathLoose } from "../../safety/paths.js";

export { isInside, realpathLoose };

export type Resolved = { ok: true; abs: string; rel: string } | { ok: false; error: string };

/** Resolves `p` (relative to cwd, or absolute) and refuses anything outside cwd. `rel` is "." for cwd itself. */
export function resolveInside(cwd: string, p: string): Resolved {
  const outside: Resolved = {
    ok: false,
    error: `Error: ${p} is outside the project folder ${cwd}; file tools only work inside it.`,
  };
  let root: string;
  let real: string;
  try {
    root = realpathLoose(path.resolve(cwd));
    real = realpathLoose(path.resolve(cwd, p));
  } catch (err) {
    return { ok: false, error: `Error: cannot resolve ${p}: ${(err as Error).message}` };
  }
  if (!isInside(root, real)) return outside;
  const rel = path.relative(root, real) || ".";
  return { ok: true, abs: real, rel: rel.split(path.sep).join("/") };
}

/**
 * The paths (relative to `root`, which is real) whose folder really lies inside root. A walker
 * that does not follow symlinks still starts inside a folder a pattern names outright
 * ("link/**"): what it found there is dropped when the folder leads out of the project.
 */
export function keepInside(root: string, rels: readonly string[]): string[] {
  const verdict = new Map<string, boolean>();
  return rels.filter((rel) => {
    const dir = path.dirname(rel);
    let ok = verdict.get(dir);
    if (ok === undefined) {
      try {
        ok = isInside(root, fs.realpathSync(path.join(root, dir)));
      } catch {
        ok = false;
      }
      verdict.set(dir, ok);
    }
    return ok;
  });
}
