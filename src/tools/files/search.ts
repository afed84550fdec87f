import { type ToolResult, defineTool } from "../types.js";
import path from "node:path";
import * as z from "zod";
import { keepInside, realpathLoose } from "./workspace.js";
import { ProjectIgnore } from "./gitignore.js";
import { resolveExisting } from "./checks.js";
import { hardLinkedOut } from "./links.js";
import { grepWithJs, grepWithRipgrep, type GrepOutcome, type GrepQuery } from "./grep-engines.js";
import type { SessionMemory } from "../session-memory.js";

export {
  grepWithJs,
  grepWithRipgrep,
  GREP_COLLECT_LIMIT,
  type GrepOutcome,
  type GrepQuery,
  type GrepMatch,
} from "./grep-engines.js";

export const GREP_MAX_SHOWN = 200;
export const GLOB_MAX_SHOWN = 500;

export type GrepEngine = "auto" | "rg" | "js";

/**
 * Searches with ripgrep, falling back to JavaScript when the binary cannot run (and, once it
 * failed, going straight to JavaScript for the rest of the session: `memory`).
 * `engine` forces one of them (tests and the benchmark); `rgBinary` overrides the bundled binary.
 */
export async function grep(
  q: GrepQuery,
  engine: GrepEngine = "auto",
  rgBinary?: string,
  memory: Pick<SessionMemory, "ripgrepUnavailable"> = { ripgrepUnavailable: false },
): Promise<GrepOutcome> {
  if (engine === "js" || (engine === "auto" && memory.ripgrepUnavailable)) return grepWithJs(q);
  const viaRg = await grepWithRipgrep(q, rgBinary);
  if (viaRg !== "unavailable") return viaRg;
  if (engine === "rg") return { ok: false, error: "Error: ripgrep cannot run here." };
  if (rgBinary === undefined) memory.ripgrepUnavailable = true;
  return grepWithJs(q);
}

/** `path:line: text` lines, sorted, capped with a count of what was left out. */
export function formatGrep(outcome: GrepOutcome, pattern: string, where: string): ToolResult {
  if (!outcome.ok) return { content: outcome.error, isError: true };
  const { matches, complete } = outcome;
  if (matches.length === 0)
    return { content: `No matches for "${pattern}" in ${placeName(where)}.`, summary: "no matches" };
  const lines = matches.slice(0, GREP_MAX_SHOWN).map((m) => `${m.path}:${m.line}: ${m.text}`);
  const rest = matches.length - GREP_MAX_SHOWN;
  if (!complete) lines.push(`[... more than ${rest} more matches not shown; narrow the pattern or the path]`);
  else if (rest > 0) lines.push(`[... ${rest} more matches not shown]`);
  const count = complete ? `${matches.length}` : `${matches.length}+`;
  return { content: lines.join("\n"), summary: `${count} ${matches.length === 1 ? "match" : "matches"}` };
}

function placeName(rel: string): string {
  return rel === "." ? "the project folder" : rel;
}

const grepSchema = z.object({
  pattern: z.string().min(1).describe("Regular expression to look for (ripgrep syntax), matched per line."),
  path: z.string().optional().describe("Folder or file to search, relative to the project folder. Default: all of it."),
  glob: z
    .string()
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts" (any depth) or "src/**/*.tsx".'),
  ignore_case: z.boolean().optional().describe("Match regardless of case. Default false."),
});

export const grepFilesTool = defineTool({
  name: "grep_files",
  description:
    "Search file contents for a regular expression. Returns matching lines as path:line: text, " +
    "skipping what .gitignore ignores. Use it to find where something is defined or used.",
  brief: "Search file contents for a regex; returns path:line: text.",
  schema: grepSchema,
  readOnly: true,
  concurrentSafe: true,
  label: (args) => `grep ${args.pattern}${args.path ? ` in ${args.path}` : ""}`,
  async run(args, ctx): Promise<ToolResult> {
    const p = args.path ?? ".";
    const where = resolveExisting(ctx.cwd, p);
    if (!where.ok) return where.result;
    const q: GrepQuery = {
      pattern: args.pattern,
      root: realpathLoose(path.resolve(ctx.cwd)),
      searchRel: where.rel,
      glob: args.glob,
      ignoreCase: args.ignore_case === true,
      signal: ctx.signal,
    };
    const outcome = await grep(q, "auto", undefined, ctx.memory);
    if (!outcome.ok) return formatGrep(outcome, args.pattern, where.rel);
    // A hard link to a file outside is not the project's text (~/.aws/credentials under a second name).
    const foreign = hardLinkedOut(
      outcome.matches.map((m) => m.path),
      q.root,
    );
    const matches = foreign.size ? outcome.matches.filter((m) => !foreign.has(m.path)) : outcome.matches;
    return formatGrep({ ...outcome, matches }, args.pattern, where.rel);
  },
});

const globSchema = z.object({
  pattern: z.string().min(1).describe('Glob for file paths, e.g. "**/*.ts" or "src/*.json". Use **/ for any depth.'),
  path: z.string().optional().describe("Folder to search from, relative to the project folder. Default: all of it."),
});

export const globFilesTool = defineTool({
  name: "glob_files",
  description:
    "Find files whose path matches a glob pattern, relative to the searched folder; skips what .gitignore ignores. " +
    "Use it to find files by name.",
  schema: globSchema,
  readOnly: true,
  concurrentSafe: true,
  label: (args) => `glob ${args.pattern}${args.path ? ` in ${args.path}` : ""}`,
  async run(args, ctx): Promise<ToolResult> {
    const p = args.path ?? ".";
    const where = resolveExisting(ctx.cwd, p);
    if (!where.ok) return where.result;
    if (!where.stat.isDirectory()) return { content: `Error: ${p} is a file, not a folder.`, isError: true };
    if (path.isAbsolute(args.pattern) || args.pattern.split("/").includes("..")) {
      return { content: 'Error: the pattern must be relative to the searched folder, without "..".', isError: true };
    }
    const root = realpathLoose(path.resolve(ctx.cwd));
    const ignore = new ProjectIgnore(root);
    const prefix = where.rel === "." ? "" : `${where.rel}/`;
    const { default: fg } = await import("fast-glob"); // loaded at the first glob, not at start-up
    const found = await fg(args.pattern, {
      cwd: where.abs,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: ["**/.git/**", "**/node_modules/**"],
    });
    const files = keepInside(
      root,
      found.map((f) => prefix + f),
    )
      .filter((rel) => !ignore.ignores(rel, false))
      .sort();
    if (files.length === 0) {
      return { content: `No files match "${args.pattern}" in ${placeName(where.rel)}.`, summary: "no files" };
    }
    const lines = files.slice(0, GLOB_MAX_SHOWN);
    if (files.length > GLOB_MAX_SHOWN) lines.push(`[... ${files.length - GLOB_MAX_SHOWN} more files not shown]`);
    return { content: lines.join("\n"), summary: `${files.length} ${files.length === 1 ? "file" : "files"}` };
  },
});
