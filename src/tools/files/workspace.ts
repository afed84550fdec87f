// File tools only work inside the project folder. Paths are compared after resolving
// symlinks, so a link pointing out of the project cannot be used to read or write outside it.
import fs from "node:fs";
import path from "node:path";

export type Resolved = { ok: true; abs: string; rel: string } | { ok: false; error: string };

const MAX_LINK_HOPS = 40;

/**
 * The real path of `abs`, also when it does not exist yet: the longest existing prefix is
 * resolved and the rest appended. A dangling symlink is followed to where it points, since
 * writing through it would create its target.
 */
export function realpathLoose(abs: string, hops = 0): string {
  if (hops > MAX_LINK_HOPS) throw new Error(`too many symbolic links in ${abs}`);
  try {
    return fs.realpathSync(abs);
  } catch {
    const parent = path.dirname(abs);
    if (parent === abs) return abs;
    const realParent = realpathLoose(parent, hops);
    const here = path.join(realParent, path.basename(abs));
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(here);
    } catch {
      stat = undefined;
    }
    if (stat?.isSymbolicLink()) {
      return realpathLoose(path.resolve(realParent, fs.readlinkSync(here)), hops + 1);
    }
    return here;
  }
}

export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

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
