import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { GitFacts } from "./git-format.js";
import { safeGitArgs, safeGitEnv } from "../safety/git-safety.js";

export { formatGitFacts, type GitFacts } from "./git-format.js";

const STATUS_LINES = 20;
const COMMITS = 5;
/**
 * What the start-up git facts may take in all: the first model request waits for them, so a
 * huge repository gives a summary in time rather than a full status late.
 */
export const GIT_FACTS_BUDGET_MS = 300;
/** Above this many tracked files, untracked files are not looked for at start-up (a walk of the whole tree). */
export const HUGE_INDEX_ENTRIES = 100_000;

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

/**
 * One of agent0's own git calls: its output, or undefined when git failed, is missing or took
 * longer than `timeoutMs` (it is killed then). The environment keeps git from taking locks,
 * prompting or paging (safeGitEnv); callers put safeGitArgs(cwd) first where the repository's
 * config could name a program.
 */
export function gitOutput(cwd: string, args: string[], timeoutMs: number): Promise<string | undefined> {
  return new Promise((done) => {
    execFile(
      "git",
      args,
      { cwd, timeout: Math.max(1, timeoutMs), maxBuffer: 4 * 1024 * 1024, env: safeGitEnv() },
      (err, stdout) => done(err ? undefined : stdout),
    );
  });
}

/** The promise's value, or undefined when it takes longer than `ms`. */
function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((done) => {
    const timer = setTimeout(() => done(undefined), Math.max(0, ms));
    p.then(
      (v) => (clearTimeout(timer), done(v)),
      () => (clearTimeout(timer), done(undefined)),
    );
  });
}

function lines(text: string | undefined): string[] {
  return (text ?? "").split("\n").filter((l) => l.trim().length > 0);
}

/** Tracked files, from the index file's header ("DIRC", version, entry count); undefined if unreadable. */
export async function indexEntries(gitDir: string): Promise<number | undefined> {
  try {
    const file = await open(join(gitDir, "index"), "r");
    try {
      const head = Buffer.alloc(12);
      const { bytesRead } = await file.read(head, 0, 12, 0);
      if (bytesRead < 12 || head.toString("latin1", 0, 4) !== "DIRC") return undefined;
      return head.readUInt32BE(8);
    } finally {
      await file.close();
    }
  } catch {
    return undefined;
  }
}

/** What `git status --porcelain=v2 --branch` says: the branch (none when detached), HEAD, the changes. */
export interface StatusV2 {
  branch?: string;
  head?: string;
  /** Each change as `git status --short` writes it: "XY path", "XY from -> to". */
  changes: string[];
}

/**
 * Reads git-status(1)'s "Porcelain Format Version 2": header lines (`# branch.oid`, `#
 * branch.head`), then one line per changed entry, its fields before the path fixed in number
 * (8 for a change, 9 and a tab before the old path for a rename or copy, 10 when unmerged). The
 * state "." (unchanged) is a space in the short format.
 */
export function readStatusV2(text: string): StatusV2 {
  const out: StatusV2 = { changes: [] };
  const fieldsBefore: Record<string, number> = { "1": 8, "2": 9, u: 10 };
  for (const line of text.split("\n")) {
    if (line.startsWith("# branch.oid ")) {
      const oid = line.slice("# branch.oid ".length);
      if (oid !== "(initial)") out.head = oid;
    } else if (line.startsWith("# branch.head ")) {
      const name = line.slice("# branch.head ".length);
      if (name !== "(detached)") out.branch = name;
    } else if (fieldsBefore[line[0] ?? ""] !== undefined && line[1] === " ") {
      const parts = line.split(" ");
      const n = fieldsBefore[line[0]!]!;
      if (parts.length <= n) continue;
      const xy = parts[1]!.replace(/\./g, " ");
      const path = parts.slice(n).join(" ");
      const [to, from] = line[0] === "2" ? path.split("\t") : [path];
      // In "from -> to", --short quotes a path with a space (v2 needs not: a tab parts them).
      const spaced = (p: string) => (p.includes(" ") && !p.startsWith('"') ? `"${p}"` : p);
      out.changes.push(from === undefined ? `${xy} ${to}` : `${xy} ${spaced(from)} -> ${spaced(to!)}`);
    }
  }
  return out;
}

/** The branch or detached commit from the HEAD file itself (a symbolic ref, or a commit id). */
export async function headFile(gitDir: string): Promise<StatusV2> {
  try {
    const text = (await readFile(join(gitDir, "HEAD"), "utf8")).trim();
    const ref = /^ref: refs\/heads\/(.+)$/.exec(text);
    return ref
      ? { branch: ref[1], changes: [] }
      : /^[0-9a-f]{40,64}$/.test(text)
        ? { head: text, changes: [] }
        : { changes: [] };
  } catch {
    return { changes: [] };
  }
}

/**
 * Branch, short status and recent commits; undefined when `cwd` is not in a repo or git is
 * missing. Everything comes within `budgetMs`: tracked changes first (`--untracked-files=no`),
 * untracked ones by a separate call that is skipped on a huge index, and whatever did not
 * finish in time is named in `notes` instead.
 */
export async function gitFacts(
  cwd: string,
  { budgetMs = GIT_FACTS_BUDGET_MS, hugeIndex = HUGE_INDEX_ENTRIES } = {},
): Promise<GitFacts | undefined> {
  // No `.git` at or above cwd, and no GIT_DIR to point elsewhere: not a repository, and no git
  // process needs to start to say so (a one-shot outside a repository spawned one for nothing).
  if (!process.env.GIT_DIR && findRepoRoot(cwd) === undefined) return undefined;
  const deadline = Date.now() + budgetMs;
  const left = () => deadline - Date.now();
  // Both at once: the repository's own config is read for the overrides while git finds the top.
  // Opening agent0 in a hostile clone must not run its fsmonitor, filters or hooks.
  const [where, safe] = await Promise.all([
    gitOutput(cwd, ["rev-parse", "--show-toplevel", "--absolute-git-dir"], left()),
    within(safeGitArgs(cwd), left()),
  ]);
  if (where === undefined) return undefined;
  // Without the overrides no git command that reads the tree may run; or the budget is spent.
  if (safe === undefined || left() <= 0) {
    const note = `Git facts not read: git took longer than ${budgetMs} ms.`;
    return { root: lines(where)[0] ?? "", branch: "(unknown)", status: [], moreStatus: 0, commits: [], notes: [note] };
  }
  const [top = "", gitDir = ""] = lines(where);
  const tracked = await indexEntries(gitDir);
  const huge = tracked !== undefined && tracked > hugeIndex;
  // The branch, HEAD and tracked changes come from one git process (each costs the app a fork).
  const [status, untracked, log] = await Promise.all([
    gitOutput(cwd, [...safe, "status", "--porcelain=v2", "--branch", "--untracked-files=no"], left()),
    huge
      ? Promise.resolve(undefined)
      : gitOutput(cwd, [...safe, "ls-files", "--others", "--exclude-standard", "--directory"], left()),
    gitOutput(cwd, [...safe, "log", "--oneline", "--no-show-signature", `-${COMMITS}`], left()),
  ]);
  // A status too slow for the budget still leaves the branch, from HEAD itself.
  const { branch, head, changes } = status === undefined ? await headFile(gitDir) : readStatusV2(status);
  const count = tracked === undefined ? "" : ` (${tracked.toLocaleString("en-US")} tracked files)`;
  const notes: string[] = [];
  if (status === undefined) {
    notes.push(`Status not read: git status took longer than ${budgetMs} ms${count}; run it when you need it.`);
  }
  if (huge) notes.push(`Untracked files not listed: the repository is large${count}.`);
  else if (untracked === undefined) notes.push(`Untracked files not listed: looking took longer than ${budgetMs} ms.`);
  const statusLines = [...changes, ...lines(untracked).map((p) => `?? ${p}`)];
  const facts: GitFacts = {
    root: top,
    branch: branch ? branch : head ? `(detached at ${head.slice(0, 7)})` : "(unknown)",
    status: statusLines.slice(0, STATUS_LINES),
    moreStatus: Math.max(0, statusLines.length - STATUS_LINES),
    commits: lines(log),
  };
  if (notes.length > 0) facts.notes = notes;
  return facts;
}
