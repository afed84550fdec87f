import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { GitFacts } from "./git-format.js";
import { safeGitArgs, safeGitEnv } from "../safety/git-safety.js";

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
  // No `.git` at or above cwd, and no GIT_DIR to point elsewhere: not a repository, and no git
  // process needs to start to say so (a one-shot outside a repository spawned one for nothing).
  if (!process.env.GIT_DIR && findRepoRoot(cwd) === undefined) return undefined;
  // Both at once: the repository's own config is read for the overrides while git finds the top.
  // Opening agent0 in a hostile clone must not run its fsmonitor, filters or hooks.
  const [top, safe] = await Promise.all([git(cwd, ["rev-parse", "--show-toplevel"], timeoutMs), safeGitArgs(cwd)]);
  if (top === undefined) return undefined;
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
