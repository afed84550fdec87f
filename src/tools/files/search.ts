import { type ToolResult, defineTool } from "../types.js";
import * as z from "zod";
import { shownPath, workspaceOf } from "./workspace.js";
import { resolveExisting } from "./checks.js";
import { hardLinkedOut } from "./links.js";
import { grepWithJs, grepWithRipgrep, type GrepOutcome, type GrepQuery } from "./grep-engines.js";
import type { SessionMemory } from "../session-memory.js";
import { SearchBudget, capNote } from "./search-budget.js";

export {
  grepWithJs,
  grepWithRipgrep,
  GREP_COLLECT_LIMIT,
  type GrepOutcome,
  type GrepQuery,
  type GrepMatch,
} from "./grep-engines.js";

export const GREP_MAX_SHOWN = 200;

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
  const { matches, complete, found } = outcome;
  if (matches.length === 0 && complete)
    return { content: `No matches for "${pattern}" in ${placeName(where)}.`, summary: "no matches" };
  const lines = matches.slice(0, GREP_MAX_SHOWN).map((m) => `${m.path}:${m.line}: ${m.text}`);
  // Stopped without a reason of the budget's: the collect limit (no budget given).
  const note = capNote(
    Math.min(GREP_MAX_SHOWN, matches.length),
    found,
    "match",
    outcome.stopped ?? (complete ? undefined : "count-time"),
  );
  if (note) lines.push(note);
  const count = complete ? `${found}` : `${found}+`;
  return { content: lines.join("\n"), summary: `${count} ${found === 1 ? "match" : "matches"}` };
}

export function placeName(rel: string): string {
  return rel === "." ? "the project folder" : rel;
}

const grepSchema = () =>
  z.object({
    pattern: z.string().min(1).describe("Regular expression to look for (ripgrep syntax), matched per line."),
    path: z
      .string()
      .optional()
      .describe("Folder or file to search, relative to the project folder. Default: all of it."),
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
    const where = resolveExisting(workspaceOf(ctx), p);
    if (!where.ok) return where.result;
    const q: GrepQuery = {
      pattern: args.pattern,
      root: where.root,
      searchRel: where.inRoot,
      glob: args.glob,
      ignoreCase: args.ignore_case === true,
      signal: ctx.signal,
      budget: new SearchBudget(ctx, "matches"),
      shown: GREP_MAX_SHOWN,
    };
    const outcome = await grep(q, "auto", undefined, ctx.memory);
    if (!outcome.ok) return formatGrep(outcome, args.pattern, where.rel);
    // A hard link to a file outside is not the project's text (~/.aws/credentials under a second name).
    const foreign = hardLinkedOut(
      outcome.matches.map((m) => m.path),
      q.root,
    );
    const kept = foreign.size ? outcome.matches.filter((m) => !foreign.has(m.path)) : outcome.matches;
    // Found in an added folder: named by absolute path, as read_file takes it.
    const matches = kept.map((m) => ({ ...m, path: shownPath(where, m.path) }));
    // Those left out are not counted either.
    const found = outcome.found - (outcome.matches.length - matches.length);
    return formatGrep({ ...outcome, matches, found }, args.pattern, where.rel);
  },
});
