import * as z from "zod";
import { type ToolResult, defineTool } from "../types.js";
import { applyEdits, editApplied, editFailed, editSchema, judgeEdits, matchedBy } from "./edit.js";
import { commitChange, loadForChange } from "./file-change.js";

const schema = () =>
  z.object({
    path: z.string().describe("Path of the file to change, relative to the project folder."),
    edits: z
      .array(editSchema())
      .min(1)
      .describe("Replacements applied in order, each to the result of the one before. All apply, or none."),
  });

export const multiEditTool = defineTool({
  name: "multi_edit",
  description:
    "Make several changes to one existing file at once: a list of {old_string, new_string, replace_all?} " +
    "applied in order, each to the result of the previous one. If any edit cannot be applied, nothing is " +
    "written. Read the file first.",
  schema,
  readOnly: false,
  concurrentSafe: false,
  label: (args) => `edit ${args.path} (${args.edits.length} ${args.edits.length === 1 ? "change" : "changes"})`,
  async run(args, ctx): Promise<ToolResult> {
    const load = await loadForChange(ctx, args.path, "multi_edit");
    if (!load.ok) return load.result;
    const { loaded } = load;
    const applied = applyEdits(loaded.file, args.edits);
    if (!applied.ok)
      return editFailed(ctx, loaded, `${args.path} was not changed: ${applied.error}`, applied.unmatched === true);
    const syntax = await judgeEdits(args.path, loaded.file, applied);
    if (!syntax.ok) return editFailed(ctx, loaded, `${args.path} was not changed: ${syntax.error}`, true);
    editApplied(ctx, loaded);
    return commitChange(ctx, {
      tool: "multi_edit",
      args,
      path: args.path,
      abs: loaded.abs,
      rel: loaded.rel,
      before: loaded,
      after: applied.file.raw,
      echo: true,
      done: `Edited ${args.path}: applied ${args.edits.length} edits.${matchedBy(applied.strategies)}${syntax.note}`,
    });
  },
});
