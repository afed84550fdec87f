import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { GitFacts } from "./git-format.js";
import { safeGitArgs, safeGitEnv } from "../tools/shell/git-safety.js";

export { formatGitFacts, type GitFacts } from "./git-format.js";

const STATUS_LINES = 20;
const COMMITS = 5;

/** Nearest folder at or above `cwd` holding `.git` (a folder, or a file for worktrees). */
export function findRepoRoot(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function git(cwd: string, args: string[], timeoutMs: number): Promise<string | undefined> {
  return new Promise((done) => {
    execFile(
      "git",
      args,
      // Optional locks off (safeGitEnv): our status call must never block the user's own git commands.
      { cwd, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, env: safeGitEnv() },
      (err, stdout) => done(err ? undefined : stdout),
    );
  });
}

function lines(text: string | undefined): string[] {
  return (text ?? "").split("\n").filter((l) => l.trim().length > 0);
}

/** Branch, short status and recent commits; undefined when `cwd` is not in a repo or git is missing. */
export async function gitFacts(cwd: string, timeoutMs = 3000): Promise<GitFacts | undefined> {
  const top = await git(cwd, ["rev-parse", "--show-toplevel"], timeoutMs);
  if (top === undefined) return undefined;
  // Opening agent0 in a hostile clone must not run its fsmonitor, filters or hooks.
  const safe = await safeGitArgs(cwd);
  const [branch, head, status, log] = await Promise.all([
    git(cwd, [...safe, "branch", "--show-current"], timeoutMs),
    git(cwd, [...safe, "rev-parse", "--short", "HEAD"], timeoutMs),
    git(cwd, [...safe, "status", "--short"], timeoutMs),
    git(cwd, [...safe, "log", "--oneline", "--no-show-signature", `-${COMMITS}`], timeoutMs),
  ]);
  const statusLines = lines(status);
  const name = branch?.trim();
  return {
    root: top.trim(),
    branch: name ? name : head ? `(detached at ${head.trim()})` : "(unknown)",
    status: statusLines.slice(0, STATUS_LINES),
    moreStatus: Math.max(0, statusLines.length - STATUS_LINES),
    commits: lines(log),
  };
}
