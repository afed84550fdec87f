// Links that lead out of the project. A symbolic link in the tree takes a recursive read that
// follows links (grep -R, diff -r, find -L) to wherever it points; a hard link is the outside file
// itself under a second name. Both are found by walking the project, within a bound.
import fs from "node:fs";
import path from "node:path";
import { isInside, realpathLoose } from "./workspace.js";

/** Entries walked at most; a bigger tree cannot be vouched for. */
export const LINK_WALK_MAX = 20_000;

/** Every entry under `dir` (breadth first), until `visit` returns false or the bound is reached; false when cut short. */
function walk(dir: string, visit: (abs: string, entry: fs.Dirent) => boolean, max = LINK_WALK_MAX): boolean {
  const queue = [dir];
  let seen = 0;
  while (queue.length > 0) {
    const here = queue.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(here, { withFileTypes: true });
    } catch {
      continue; // unreadable: nothing of it can be read either
    }
    for (const e of entries) {
      if (++seen > max) return false;
      const abs = path.join(here, e.name);
      if (!visit(abs, e)) return true;
      if (e.isDirectory()) queue.push(abs);
    }
  }
  return true;
}

/**
 * The symbolic links under `trees` whose targets are outside `root`, as `link -> target`;
 * `complete` is false when the trees were too big to walk whole.
 */
export function linksLeadingOut(trees: readonly string[], root: string): { out: string[]; complete: boolean } {
  const out: string[] = [];
  let complete = true;
  for (const tree of trees) {
    const whole = walk(tree, (abs, e) => {
      if (!e.isSymbolicLink()) return true;
      const target = realpathLoose(abs);
      if (!isInside(root, target)) out.push(`${path.relative(root, abs)} -> ${target}`);
      return out.length < 5;
    });
    complete &&= whole;
  }
  return { out, complete };
}

/**
 * Whether a regular file has names outside the project (a hard link to `~/.aws/credentials`):
 * "inside" when every name was found in the project, "outside" when not, "unknown" when the
 * project is too big to look through.
 */
export function hardLinkNames(abs: string, stat: fs.Stats, root: string): "inside" | "outside" | "unknown" {
  if (!stat.isFile() || stat.nlink <= 1) return "inside";
  // pnpm and bun hard-link every package file from their store: those are packages, not the user's files.
  if (path.relative(root, abs).split(path.sep).includes("node_modules")) return "inside";
  let found = 0;
  const whole = walk(root, (other, e) => {
    if (!e.isFile()) return true;
    try {
      const s = fs.lstatSync(other);
      if (s.ino === stat.ino && s.dev === stat.dev) found++;
    } catch {
      // gone
    }
    return found < stat.nlink;
  });
  if (found >= stat.nlink) return "inside";
  return whole ? "outside" : "unknown";
}

/** Paths (relative to `root`) of regular files whose other names may be outside the project: their content is not the project's. */
export function hardLinkedOut(rels: Iterable<string>, root: string): Set<string> {
  const out = new Set<string>();
  for (const rel of new Set(rels)) {
    const abs = path.join(root, rel);
    try {
      const stat = fs.statSync(abs);
      if (stat.nlink > 1 && hardLinkNames(abs, stat, root) !== "inside") out.add(rel);
    } catch {
      // gone
    }
  }
  return out;
}
