// File tools only work inside the project folder. Paths are compared after resolving
// symlinks, so a link pointing out of the project cannot be used to read or write outside it.
import fs from "node:fs";
import path from "node:path";

import { isInside, realpathLoose } from "../../safety/paths.js";

export { isInside, realpathLoose };

/**
 * Where a path lies: `abs` its real path; `root` the real folder it is inside (the project, or an
 * `--add-dir` folder) and `inRoot` its path there ("." for the folder itself); `rel` the name the
 * model is shown: relative for the project, absolute in an added folder (so it is never read as
 * a project path).
 */
export type Resolved =
  { ok: true; abs: string; rel: string; root: string; inRoot: string } | { ok: false; error: string };

/** The folders the file tools may use: the project, and those `--add-dir` added (real paths). */
export interface Workspace {
  cwd: string;
  addDirs?: readonly string[] | undefined;
}

export function workspaceOf(ctx: { cwd: string; config: { addDirs?: readonly string[] | undefined } }): Workspace {
  return { cwd: ctx.cwd, addDirs: ctx.config.addDirs };
}

/**
 * Resolves `p` (relative to the project, or absolute) and refuses anything outside the project
 * and the added folders. Links are followed first, so `..` or a symlink out of a folder is out.
 */
export function resolveInside(ws: Workspace | string, p: string): Resolved {
  const { cwd, addDirs = [] } = typeof ws === "string" ? { cwd: ws } : ws;
  const also = addDirs.length > 0 ? ` or the added folders (${addDirs.join(", ")})` : "";
  const outside: Resolved = {
    ok: false,
    error: `Error: ${p} is outside the project folder ${cwd}${also}; file tools only work inside ${addDirs.length > 0 ? "them" : "it"}.`,
  };
  let root: string;
  let real: string;
  try {
    root = realpathLoose(path.resolve(cwd));
    real = realpathLoose(path.resolve(cwd, p));
  } catch (err) {
    return { ok: false, error: `Error: cannot resolve ${p}: ${(err as Error).message}` };
  }
  const posix = (rel: string) => rel.split(path.sep).join("/");
  if (isInside(root, real)) {
    const rel = posix(path.relative(root, real) || ".");
    return { ok: true, abs: real, rel, root, inRoot: rel };
  }
  for (const dir of addDirs) {
    const added = realpathLoose(dir);
    if (!isInside(added, real)) continue;
    return { ok: true, abs: real, rel: real, root: added, inRoot: posix(path.relative(added, real) || ".") };
  }
  return outside;
}

/** A path found under `where` (relative to its root) as the model is shown it (see Resolved.rel). */
export function shownPath(where: { root: string; rel: string; inRoot: string }, inRoot: string): string {
  return where.rel === where.inRoot ? inRoot : path.join(where.root, inRoot);
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
