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

/**
 * Claude Code's `permissions.additionalDirectories` from settings files: like `--add-dir`, but a
 * folder that is gone is said and left out rather than stopping the start (the file may be older
 * than the folder). `~/` is the user's home; a relative path is from `cwd`.
 */
export function settingsAddDirs(given: readonly string[], cwd: string, home: string, warnings: string[]): string[] {
  const out: string[] = [];
  for (const p of given) {
    const expanded = p === "~" ? home : p.startsWith("~/") ? path.join(home, p.slice(2)) : p;
    try {
      for (const dir of resolveAddDirs([expanded], cwd)) if (!out.includes(dir)) out.push(dir);
    } catch (err) {
      warnings.push(
        `permissions.additionalDirectories: ${(err as Error).message.replace(/^--add-dir /, "")} — left out`,
      );
    }
  }
  return out;
}
