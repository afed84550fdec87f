import * as z from "zod";
import { lazily } from "../../context/lazily.js";
import { type ToolContext, type ToolResult, defineTool } from "../types.js";
import { applySplices, fileTextOf, type FileText } from "./file-text.js";
import { planEdit } from "./edit-match.js";
import { unmarkedDiff } from "./edit-transforms.js";
import { judgeSyntax, type SyntaxVerdict } from "./edit-syntax.js";
import { commitChange, loadForChange, type Loaded } from "./file-change.js";
import { noteEditOutcome } from "./read-state.js";

/** One replacement, as edit_file and each of multi_edit's edits take it (built on first use). */
export const editSchema = lazily(() =>
  z.object({
    old_string: z
      .string()
      .describe("The text to replace, copied from the file including whitespace (no line numbers)."),
    new_string: z.string().describe("The text to put in its place, written out in full."),
    replace_all: z.boolean().optional().describe("Replace every occurrence instead of exactly one. Default false."),
  }),
);

const schema = () =>
  editSchema().extend({
    path: z.string().describe("Path of the file to change, relative to the project folder."),
  });

export type EditStep = z.infer<ReturnType<typeof editSchema>>;

export type Applied =
  | { ok: true; file: FileText; strategies: string[]; count: number; unmarked: boolean }
  /** `unmatched`: old_string was not found in the file (or not once), not a mistake in the arguments. */
  | { ok: false; error: string; unmatched?: boolean };

/** Applies edits one after another to a file's text, all or nothing. */
export function applyEdits(file: FileText, edits: readonly EditStep[]): Applied {
  let current = file;
  const strategies: string[] = [];
  let count = 0;
  let unmarked = false;
  for (const [i, e] of edits.entries()) {
    const which = edits.length > 1 ? `edit ${i + 1}: ` : "";
    if (e.old_string === "") {
      return {
        ok: false,
        error: `${which}old_string is empty. To add text, include a nearby line in old_string; for a whole file use write_file.`,
      };
    }
    if (e.old_string === e.new_string) {
      return { ok: false, error: `${which}old_string and new_string are the same; nothing would change.` };
    }
    // A diff pasted as new_string is read without its markers, if the file's checks accept that.
    const plain = unmarkedDiff(e.old_string, e.new_string);
    const plan = planEdit(current.lf, e.old_string, plain ?? e.new_string, e.replace_all === true);
    if (!plan.ok) return { ok: false, error: `${which}${plan.error}`, unmatched: true };
    strategies.push(plan.strategy);
    if (plain !== undefined) {
      strategies.push("diff-markers-stripped");
      unmarked = true;
    }
    count += plan.splices.length;
    current = fileTextOf(applySplices(current, plan.splices), current.encoding, current.bom);
  }
  return { ok: true, file: current, strategies, count, unmarked };
}

/** The file's syntax after applied edits: a near-miss that breaks a parsing file is refused. */
export function judgeEdits(path: string, before: FileText, applied: Applied & { ok: true }): Promise<SyntaxVerdict> {
  const nearMiss = applied.strategies.some((s) => s !== "exact");
  return judgeSyntax(path, before.lf, applied.file.lf, { nearMiss, mustJudge: applied.unmarked });
}

/** A file this small is cheaper to rewrite whole than to edit a third time. */
const SMALL_FILE_BYTES = 16_000;
const SMALL_FILE_LINES = 300;

/**
 * The result of an edit that could not be applied. The second failure in a row on the same small
 * file suggests write_file with the whole file: the model's copy of it is off, and more edits
 * rarely mend that.
 */
export function editFailed(ctx: ToolContext, loaded: Loaded, error: string, unmatched: boolean): ToolResult {
  if (!unmatched) return { content: `Error: ${error}`, isError: true };
  const n = noteEditOutcome(ctx, loaded.abs, true);
  const small = loaded.bytes.length <= SMALL_FILE_BYTES && loaded.file.lf.split("\n").length <= SMALL_FILE_LINES;
  const hint =
    n >= 2 && small
      ? ` Edits of ${loaded.path} failed ${n} times in a row. It is a small file: read it, then write it whole ` +
        "with write_file (its full new content) instead of editing it again."
      : "";
  return { content: `Error: ${error}${hint}`, isError: true };
}

/** An edit applied: the failures in a row start again from none. */
export function editApplied(ctx: ToolContext, loaded: Loaded): void {
  noteEditOutcome(ctx, loaded.abs, false);
}

/** "exact" says nothing; any other strategy is named so the model learns what it got wrong. */
export function matchedBy(strategies: readonly string[]): string {
  const fuzzy = [...new Set(strategies.filter((s) => s !== "exact" && s !== "diff-markers-stripped"))];
  const matched = fuzzy.length > 0 ? ` old_string did not match exactly; matched by: ${fuzzy.join(", ")}.` : "";
  const unmarked = strategies.includes("diff-markers-stripped")
    ? ' new_string was read as a diff: its "+" and " " markers were dropped and its "-" lines left out.'
    : "";
  return matched + unmarked;
}

export const editFileTool = defineTool({
  name: "edit_file",
  description:
    "Change an existing file by replacing old_string with new_string. old_string must identify one place " +
    "(add surrounding lines to make it unique) unless replace_all is true. Read the file first. For several " +
    "changes to one file use multi_edit; to rewrite a whole small file use write_file.",
  brief: "Replace old_string (copied exactly from the file, unique) with new_string. Read the file first.",
  schema,
  readOnly: false,
  concurrentSafe: false,
  label: (args) => `edit ${args.path}`,
  async run(args, ctx): Promise<ToolResult> {
    const load = await loadForChange(ctx, args.path, "edit_file");
    if (!load.ok) return load.result;
    const { loaded } = load;
    const applied = applyEdits(loaded.file, [args]);
    if (!applied.ok) {
      const error = applied.error.replace(/^old_string/, `old_string in ${args.path}`);
      return editFailed(ctx, loaded, error, applied.unmatched === true);
    }
    const syntax = await judgeEdits(args.path, loaded.file, applied);
    if (!syntax.ok) return editFailed(ctx, loaded, syntax.error, true);
    editApplied(ctx, loaded);
    const times = applied.count === 1 ? "1 occurrence" : `${applied.count} occurrences`;
    return commitChange(ctx, {
      tool: "edit_file",
      args,
      path: args.path,
      abs: loaded.abs,
      rel: loaded.rel,
      before: loaded,
      after: applied.file.raw,
      echo: true,
      done: `Edited ${args.path}: replaced ${times}.${matchedBy(applied.strategies)}${syntax.note}`,
    });
  },
});
