// Where the file index's paths come from, streamed into a PathTable as they arrive. In a git
// repository git knows them already: `ls-files` reads the index (tracked files, fast even at a
// million), and a second call walks for untracked files that are not ignored. Elsewhere ripgrep
// lists files with the same rules grep_files searches by; without either, a plain walk.
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { findRepoRoot } from "../context/git.js";
import { safeGitArgs, safeGitEnv } from "../safety/git-safety.js";
import { RG_WALK_ARGS, bundledRgPath } from "../tools/files/grep-engines.js";
import { ALWAYS_SKIPPED, ProjectIgnore } from "../tools/files/gitignore.js";
import { PathTable, joinChunks } from "./path-table.js";

export type ListSource = "git" | "ripgrep" | "walk";

/** Runs `command`, adding each NUL-separated path it prints; resolves with its exit code. */
function streamPaths(table: PathTable, command: string, args: string[], cwd: string, signal: AbortSignal) {
  return new Promise<number | null>((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "ignore"], env: safeGitEnv(), signal });
    let rest: Uint8Array = new Uint8Array(0);
    child.stdout.on("data", (chunk: Buffer) => {
      rest = table.addNulSeparated(joinChunks(rest, chunk));
    });
    child.on("error", () => resolve(null));
    child.on("close", (code) => {
      if (rest.length > 0) table.addFile(rest, 0, rest.length);
      resolve(code);
    });
  });
}

async function fromGit(table: PathTable, cwd: string, signal: AbortSignal): Promise<boolean> {
  const safe = await safeGitArgs(cwd);
  const ls = [...safe, "ls-files", "-z"];
  // Both at once: the index streams in while git walks the tree for untracked files.
  const [tracked, untracked] = await Promise.all([
    streamPaths(table, "git", [...ls, "--cached", "--deduplicate"], cwd, signal),
    streamPaths(table, "git", [...ls, "--others", "--exclude-standard"], cwd, signal),
  ]);
  return tracked === 0 && untracked === 0;
}

async function fromRipgrep(table: PathTable, cwd: string, signal: AbortSignal): Promise<boolean> {
  const rg = await bundledRgPath();
  if (!rg) return false;
  const code = await streamPaths(table, rg, ["--files", ...RG_WALK_ARGS], cwd, signal);
  // 1: no files at all (an empty folder), still an answer.
  return code === 0 || (code === 1 && table.count === 0);
}

const encoder = new TextEncoder();

/** Breadth first, .gitignore respected; yields to the event loop between folders. */
async function fromWalk(table: PathTable, cwd: string, signal: AbortSignal): Promise<void> {
  const root = await fs.realpath(cwd);
  const ignore = new ProjectIgnore(root);
  const queue = [""];
  while (queue.length > 0 && !signal.aborted) {
    const dir = queue.shift()!;
    const entries = await fs.readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (ALWAYS_SKIPPED.has(e.name)) continue;
      const rel = dir ? `${dir}/${e.name}` : e.name;
      const isDir = e.isDirectory();
      if (ignore.ignores(rel, isDir)) continue;
      if (isDir) queue.push(rel);
      else {
        const bytes = encoder.encode(rel);
        table.addFile(bytes, 0, bytes.length);
      }
    }
  }
}

/** Fills `table` with the project's files (and their folders); says which source answered. */
export async function listProjectFiles(table: PathTable, cwd: string, signal: AbortSignal): Promise<ListSource> {
  if (findRepoRoot(cwd) !== undefined && (await fromGit(table, cwd, signal))) return "git";
  // Git answered in part (or was stopped): what it listed stands.
  if (signal.aborted || table.count > 0) return "git";
  if (await fromRipgrep(table, cwd, signal)) return "ripgrep";
  if (table.count === 0) await fromWalk(table, cwd, signal);
  return "walk";
}
