// Agent Plugins 1.0 §4.1: every file a plugin supplies must resolve, links followed, inside the
// plugin's own folder (agent-plugins-spec spec/1.0.0.md). One rule here for the manifest, the fixed
// component locations, each SKILL.md and a `./` command or cwd, so no path of a plugin's reaches
// past its root by `..`, an absolute path or a symlink.
import { lstatSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

export type Confined =
  { ok: true; path: string; kind: "file" | "dir" | "other" } | { ok: false; missing: boolean; why: string };

/** The real path, or the path as given when it cannot be resolved (missing, unreadable). */
export function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Whether `path` is `root` or lies below it (both real, absolute paths). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * `rel` (a fixed location such as `skills`, or a `./` path from the plugin's config) inside the
 * plugin whose real root is `root`: its real path, or why it may not be used.
 */
export function confine(root: string, rel: string): Confined {
  if (isAbsolute(rel))
    return { ok: false, missing: false, why: `${rel} is an absolute path, not one inside the plugin` };
  const lexical = resolve(root, rel);
  if (!isInside(root, lexical)) return { ok: false, missing: false, why: `${rel} leads out of the plugin's folder` };
  try {
    lstatSync(lexical);
  } catch {
    return { ok: false, missing: true, why: `${rel} does not exist in the plugin` };
  }
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch {
    return { ok: false, missing: false, why: `${rel} is a link that leads nowhere` };
  }
  if (!isInside(root, real))
    return { ok: false, missing: false, why: `${rel} is a link that leads out of the plugin's folder (to ${real})` };
  const stat = statSync(real);
  return { ok: true, path: real, kind: stat.isFile() ? "file" : stat.isDirectory() ? "dir" : "other" };
}
