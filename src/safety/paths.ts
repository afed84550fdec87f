// Where a path really leads: the one rule both threads use to keep reads and writes inside a
// folder (the file tools, and the files agent0 keeps for itself, such as memory).
import fs from "node:fs";
import path from "node:path";

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
