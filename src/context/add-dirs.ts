// `--add-dir <path>` (Claude Code's flag): more folders the tools may use, by the project's rules.
import fs from "node:fs";
import path from "node:path";

/**
 * The folders as real absolute paths (relative ones from `cwd`), in order, without repeats.
 * A path that does not exist or is not a folder is an error at start, never a folder left out.
 */
export function resolveAddDirs(given: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  for (const p of given) {
    const abs = path.resolve(cwd, p);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      throw new Error(`--add-dir ${p}: no such folder (${abs}).`);
    }
    if (!stat.isDirectory()) throw new Error(`--add-dir ${p}: not a folder (${abs}).`);
    const real = fs.realpathSync(abs);
    if (!out.includes(real)) out.push(real);
  }
  return out;
}
