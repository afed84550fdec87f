// Two ways to grep with one result: ripgrep (fast, shipped by @vscode/ripgrep) and plain
// JavaScript for when that binary cannot run. Both search hidden files, skip binary files,
// .git, node_modules and what .gitignore ignores, and report paths relative to the project root.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { keepInside } from "./workspace.js";
import { ProjectIgnore } from "./gitignore.js";
import { PROGRESS_MS, type SearchBudget, type StopReason } from "./search-budget.js";

export interface GrepQuery {
  pattern: string;
  /** Real path of the project folder; results are relative to it. */
  root: string;
  /** Folder or file to search, relative to root ("." = all). */
  searchRel: string;
  /** rg-style glob: without "/" it matches file names at any depth, with "/" paths from the root. */
  glob?: string;
  ignoreCase: boolean;
  signal?: AbortSignal;
  /** Stops the search when it has counted long enough (the tool's); without one it stops at the collect limit. */
  budget?: SearchBudget;
  /** How many matches the caller shows (the budget starts counting time once there are more). */
  shown?: number;
}

export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export type GrepOutcome =
  | {
      ok: true;
      /** Sorted; at most GREP_COLLECT_LIMIT. */
      matches: GrepMatch[];
      /** Matches counted (all of them when complete). */
      found: number;
      complete: boolean;
      stopped?: StopReason;
    }
  | { ok: false; error: string };

/** Matches kept (and sorted) at most; past it they are only counted, so "e" over a huge tree stays bounded. */
export const GREP_COLLECT_LIMIT = 20_000;

/** Whether to stop now, having `found` matches: the budget decides, or without one the collect limit. */
function enough(q: GrepQuery, found: number): boolean {
  return q.budget ? q.budget.over(found, q.shown ?? GREP_COLLECT_LIMIT) : found > GREP_COLLECT_LIMIT;
}
/** Lines are cut to this many characters (minified files). */
export const GREP_MAX_LINE_CHARS = 300;

export function byPathThenLine(a: GrepMatch, b: GrepMatch): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.line - b.line;
}

function cleanLine(text: string): string {
  const line = text.endsWith("\r") ? text.slice(0, -1) : text;
  return line.length > GREP_MAX_LINE_CHARS ? `${line.slice(0, GREP_MAX_LINE_CHARS)}…` : line;
}

/**
 * Which files ripgrep visits, for grep_files and the file index alike: hidden files too, the
 * project's .gitignore files (also outside a repository) but not the user's global ones, never
 * .git or node_modules; paths end in NUL.
 */
export const RG_WALK_ARGS = [
  "--null",
  "--hidden",
  "--no-require-git",
  "--no-ignore-global",
  "--no-ignore-dot",
  "--no-ignore-parent",
  "--no-messages",
  "--glob",
  "!.git",
  "--glob",
  "!node_modules",
];

// eslint-disable-next-line no-restricted-syntax -- a cache: where the ripgrep binary is, looked up once
let rgPathPromise: Promise<string | null> | undefined;

/** The bundled rg binary, or null when its platform package is missing. */
export function bundledRgPath(): Promise<string | null> {
  // Imported lazily: @vscode/ripgrep throws at import time when the binary package is missing,
  // and that must not break loading the tools.
  rgPathPromise ??= import("@vscode/ripgrep").then(
    (m) => m.rgPath,
    () => null,
  );
  return rgPathPromise;
}

/** "unavailable" when the binary cannot be started; the caller then uses grepWithJs. */
export async function grepWithRipgrep(q: GrepQuery, rgBinary?: string): Promise<GrepOutcome | "unavailable"> {
  const binary = rgBinary ?? (await bundledRgPath());
  if (!binary) return "unavailable";
  const args = ["--no-heading", "--line-number", "--color", "never", "--with-filename", "--crlf", ...RG_WALK_ARGS];
  if (q.ignoreCase) args.push("--ignore-case");
  if (q.glob) args.push("--glob", q.glob);
  args.push("--regexp", q.pattern);
  if (q.searchRel !== ".") args.push("--", q.searchRel);

  return new Promise((resolve) => {
    const child = spawn(binary, args, { cwd: q.root, stdio: ["ignore", "pipe", "pipe"], signal: q.signal });
    const ignore = new ProjectIgnore(q.root);
    const matches: GrepMatch[] = [];
    let found = 0;
    let complete = true;
    let pending = "";
    let stderr = "";
    const take = (line: string): void => {
      const nul = line.indexOf("\0");
      const colon = line.indexOf(":", nul + 1);
      if (nul < 0 || colon < 0) return;
      const file = line.slice(0, nul);
      // rg applies the rules inside the searched folder; the folders above it are checked here.
      if (file !== q.searchRel && ignore.ignores(file, false)) return;
      found++;
      if (matches.length >= GREP_COLLECT_LIMIT) return;
      matches.push({ path: file, line: Number(line.slice(nul + 1, colon)), text: cleanLine(line.slice(colon + 1)) });
    };
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    const stopIfEnough = () => {
      if (!complete || !enough(q, found)) return;
      complete = false;
      pending = "";
      child.kill();
    };
    // A rare pattern prints nothing for a long time: the budget is also checked on a clock.
    const clock = q.budget ? setInterval(stopIfEnough, PROGRESS_MS) : undefined;
    child.stdout.on("data", (chunk: string) => {
      if (!complete) return;
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) take(line);
      stopIfEnough();
    });
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (err: NodeJS.ErrnoException) => {
      clearInterval(clock);
      if (q.signal?.aborted) resolve({ ok: false, error: "Error: interrupted by the user." });
      else if (err.code === "ENOENT" || err.code === "EACCES" || err.code === "ENOEXEC") resolve("unavailable");
      else resolve({ ok: false, error: `Error: ripgrep failed: ${err.message}` });
    });
    child.on("close", (code) => {
      clearInterval(clock);
      if (pending) take(pending);
      if (code === 2 && matches.length === 0 && stderr.trim() !== "") {
        resolve({ ok: false, error: `Error: invalid search: ${stderr.trim().split("\n").slice(0, 6).join("\n")}` });
        return;
      }
      matches.sort(byPathThenLine);
      resolve(finished(q, matches, found, complete));
    });
  });
}

/** The same search in JavaScript: fast-glob for the files, a RegExp per line. */
export async function grepWithJs(q: GrepQuery): Promise<GrepOutcome> {
  let regex: RegExp;
  try {
    regex = makeRegex(q.pattern, q.ignoreCase);
  } catch (err) {
    return { ok: false, error: `Error: invalid search: ${(err as Error).message}` };
  }
  const files = await listSearchFiles(q);
  const matches: GrepMatch[] = [];
  let found = 0;
  let complete = true;
  const BATCH = 64;
  for (let i = 0; i < files.length; i += BATCH) {
    if (q.signal?.aborted) return { ok: false, error: "Error: interrupted by the user." };
    const lists = await Promise.all(files.slice(i, i + BATCH).map((file) => searchFile(q.root, file, regex)));
    for (const list of lists) {
      found += list.length;
      matches.push(...list.slice(0, GREP_COLLECT_LIMIT - matches.length));
    }
    if (enough(q, found)) {
      complete = false;
      break;
    }
  }
  matches.sort(byPathThenLine);
  return finished(q, matches, found, complete);
}

function finished(q: GrepQuery, matches: GrepMatch[], found: number, complete: boolean): GrepOutcome {
  const out: GrepOutcome = { ok: true, matches, found, complete };
  const stopped = q.budget?.stopped;
  if (!complete && stopped) out.stopped = stopped;
  return out;
}

function makeRegex(pattern: string, ignoreCase: boolean): RegExp {
  const flags = ignoreCase ? "i" : "";
  try {
    // Unicode-aware like ripgrep's regex engine.
    return new RegExp(pattern, `${flags}u`);
  } catch {
    return new RegExp(pattern, flags);
  }
}

async function listSearchFiles(q: GrepQuery): Promise<string[]> {
  const abs = path.join(q.root, q.searchRel);
  const stat = await fs.promises.stat(abs).catch(() => null);
  const ignore = new ProjectIgnore(q.root);
  // Like rg, a file named outright is searched even if .gitignore lists it.
  if (stat?.isFile()) return [q.searchRel];
  const { default: fg } = await import("fast-glob"); // loaded at the first search, not at start-up
  const base = q.searchRel === "." ? "" : `${fg.escapePath(q.searchRel)}/`;
  const prefix = q.searchRel === "." ? "" : `${q.searchRel}/`;
  // rg globs: a "!" excludes; without "/" a glob matches the file name at any depth.
  const negated = q.glob?.startsWith("!") === true;
  const glob = negated ? q.glob!.slice(1) : q.glob;
  const anchored = (g: string, under: string): string => (g.includes("/") ? g.replace(/^\//, "") : `${under}**/${g}`);
  const include = glob && !negated ? anchored(glob, base) : `${base}**/*`;
  const entries = await fg(include, {
    cwd: q.root,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    ignore: ["**/.git/**", "**/node_modules/**", ...(glob && negated ? [anchored(glob, "")] : [])],
  });
  return keepInside(
    q.root,
    entries.filter((rel) => rel.startsWith(prefix) && !ignore.ignores(rel, false)),
  ).sort();
}

async function searchFile(root: string, rel: string, regex: RegExp): Promise<GrepMatch[]> {
  let buf: Buffer;
  try {
    buf = await fs.promises.readFile(path.join(root, rel));
  } catch {
    return [];
  }
  // ripgrep drops a file at its first NUL byte, wherever it is.
  if (buf.includes(0)) return [];
  const lines = buf.toString("utf8").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const found: GrepMatch[] = [];
  lines.forEach((raw, i) => {
    // Like rg --crlf: "$" matches before a CRLF line end.
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (regex.test(text)) found.push({ path: rel, line: i + 1, text: cleanLine(text) });
  });
  return found;
}
