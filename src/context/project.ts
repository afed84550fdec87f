import { open, realpath } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { dirname, join, relative, resolve, sep } from "node:path";
import { findRepoRoot } from "./git.js";

/** One instruction file as it goes into the system prompt. */
export interface ContextFile {
  /** Absolute path. */
  path: string;
  /** How the prompt and /context name it: relative to cwd, or with `~` for the home folder. */
  label: string;
  content: string;
  truncated: boolean;
}

export const CONTEXT_FILE_CAP = 16 * 1024;
export const TRUNCATED_MARKER = "[truncated]";

/** Read at most `cap` bytes; a file over the cap ends with the marker. Missing/empty -> undefined. */
async function readCapped(path: string, cap: number): Promise<{ content: string; truncated: boolean } | undefined> {
  let handle;
  try {
    handle = await open(path, "r");
    if (!(await handle.stat()).isFile()) return undefined;
    const buf = Buffer.alloc(cap + 1);
    const { bytesRead } = await handle.read(buf, 0, cap + 1, 0);
    const truncated = bytesRead > cap;
    // StringDecoder holds back a UTF-8 sequence cut in half by the cap instead of emitting U+FFFD.
    const text = new StringDecoder("utf8").write(buf.subarray(0, Math.min(bytesRead, cap)));
    if (text.trim().length === 0) return undefined;
    return { content: truncated ? `${text.trimEnd()}\n${TRUNCATED_MARKER}` : text.trimEnd(), truncated };
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/** Folders from the repo root (or cwd when there is no repo) down to cwd. */
function foldersRootToCwd(cwd: string, root: string | undefined): string[] {
  const out = [cwd];
  if (!root) return out;
  let dir = cwd;
  while (dir !== root && dir.startsWith(root + sep)) {
    dir = dirname(dir);
    out.unshift(dir);
  }
  return out;
}

function labelFor(path: string, cwd: string, home: string): string {
  const rel = relative(cwd, path);
  if (!rel.startsWith("..")) return rel;
  if (path.startsWith(home + sep)) return `~/${relative(home, path)}`;
  return rel.split(sep).length <= 4 ? rel : path;
}

/**
 * The instruction files, most general first: ~/.claude/CLAUDE.md, then AGENTS.md and
 * CLAUDE.md from the repo root down to cwd, then .agent0/context.md, .cursorrules and
 * .github/copilot-instructions.md (repo root, then cwd). Each is capped; a file reached
 * twice (a symlink AGENTS.md -> CLAUDE.md) is read once.
 */
export async function loadInstructionFiles(cwd: string, home: string, cap = CONTEXT_FILE_CAP): Promise<ContextFile[]> {
  const dir = resolve(cwd);
  const root = findRepoRoot(dir);
  const folders = foldersRootToCwd(dir, root);
  const candidates = [join(home, ".claude", "CLAUDE.md")];
  for (const folder of folders) candidates.push(join(folder, "AGENTS.md"), join(folder, "CLAUDE.md"));
  for (const folder of root && root !== dir ? [root, dir] : [dir]) {
    candidates.push(
      join(folder, ".agent0", "context.md"),
      join(folder, ".cursorrules"),
      join(folder, ".github", "copilot-instructions.md"),
    );
  }

  // All at once: one after the other, each waited a turn of the thread pool (~9 ms of a one-shot
  // for the six candidates of a folder outside a repository).
  const reals = await Promise.all(candidates.map((path) => realpath(path).catch(() => undefined)));
  const seen = new Set<string>();
  const unique = candidates.filter((_, i) => {
    const real = reals[i];
    if (!real || seen.has(real)) return false;
    seen.add(real);
    return true;
  });
  const reads = await Promise.all(unique.map((path) => readCapped(path, cap)));
  return unique.flatMap((path, i) => {
    const read = reads[i];
    return read ? [{ path, label: labelFor(path, dir, home), ...read }] : [];
  });
}
