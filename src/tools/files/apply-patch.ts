import fs from "node:fs";
import * as z from "zod";
import { type ToolResult, defineTool } from "../types.js";
import { resolveInside, workspaceOf } from "./workspace.js";
import { deniedMessage, statOrNull } from "./checks.js";
import { applyEdits, judgeEdits, matchedBy } from "./edit.js";
import { judgeSyntax } from "./edit-syntax.js";
import { commitChange, loadForChange, type Change } from "./file-change.js";
import { fileDiff } from "./diff.js";
import { parsePatch } from "./patch-parse.js";

const schema = () =>
  z.object({
    patch: z
      .string()
      .describe('The whole patch, from "*** Begin Patch" to "*** End Patch", in the apply_patch format.'),
  });

type Planned =
  { kind: "write"; change: Change } | { kind: "delete"; path: string; abs: string; rel: string; text: string };

export const applyPatchTool = defineTool({
  name: "apply_patch",
  description:
    "Change, add or delete files with one patch: *** Begin Patch, then per file *** Update File: <path> with " +
    '@@ hunks (" " context, "-" removed, "+" added lines), *** Add File: <path> with "+" lines, or ' +
    "*** Delete File: <path>; then *** End Patch. Every file is checked before any is written.",
  schema,
  readOnly: false,
  concurrentSafe: false,
  label: (args) => {
    const files = [...args.patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)].map((m) => m[1]!.trim());
    return `patch ${files.slice(0, 3).join(", ")}${files.length > 3 ? ` +${files.length - 3}` : ""}`;
  },
  async run(args, ctx): Promise<ToolResult> {
    const parsed = parsePatch(args.patch);
    if (!parsed.ok) return { content: `Error: the patch could not be read: ${parsed.error}.`, isError: true };
    // Everything is planned before anything is written: a patch that fails halfway writes nothing.
    const planned: Planned[] = [];
    for (const op of parsed.ops) {
      if (op.kind === "add") {
        const where = resolveInside(workspaceOf(ctx), op.path);
        if (!where.ok) return { content: where.error, isError: true };
        if (statOrNull(where.abs))
          return { content: `Error: ${op.path} already exists; update it instead.`, isError: true };
        const syntax = await judgeSyntax(op.path, undefined, op.content, { nearMiss: false });
        const done = `Added ${op.path}.${syntax.ok ? syntax.note : ""}`;
        planned.push({
          kind: "write",
          change: { tool: "apply_patch", args, path: op.path, abs: where.abs, rel: where.rel, after: op.content, done },
        });
        continue;
      }
      const load = await loadForChange(ctx, op.path, "apply_patch");
      if (!load.ok) return load.result;
      const { loaded } = load;
      if (op.kind === "delete") {
        planned.push({ kind: "delete", path: op.path, abs: loaded.abs, rel: loaded.rel, text: loaded.file.raw });
        continue;
      }
      const applied = applyEdits(loaded.file, op.hunks);
      if (!applied.ok) return { content: `Error: nothing was changed: ${op.path}: ${applied.error}`, isError: true };
      const syntax = await judgeEdits(op.path, loaded.file, applied);
      if (!syntax.ok) return { content: `Error: nothing was changed: ${op.path}: ${syntax.error}`, isError: true };
      const done = `Updated ${op.path}.${matchedBy(applied.strategies)}${syntax.note}`;
      planned.push({
        kind: "write",
        change: {
          tool: "apply_patch",
          args,
          path: op.path,
          abs: loaded.abs,
          rel: loaded.rel,
          before: loaded,
          after: applied.file.raw,
          done,
          echo: true,
        },
      });
    }
    const results: ToolResult[] = [];
    for (const p of planned) {
      const r = p.kind === "write" ? await commitChange(ctx, p.change) : await deleteFile(ctx, p);
      results.push(r);
      if (r.isError) break;
    }
    const last = results.at(-1)!;
    const content = results.map((r) => r.content).join("\n");
    const diffs = results.map((r) => r.diff ?? "").join("");
    return last.isError
      ? { content, isError: true }
      : { content, ...(diffs ? { diff: diffs } : {}), path: planned.length === 1 ? results[0]!.path : undefined };
  },
});

async function deleteFile(
  ctx: Parameters<typeof applyPatchTool.run>[1],
  p: { path: string; abs: string; rel: string; text: string },
): Promise<ToolResult> {
  const diff = fileDiff(p.rel, p.text, "").replace(`+++ ${p.rel}`, "+++ /dev/null");
  const approval = await ctx.approve({ tool: "apply_patch", kind: "edit", args: { delete: p.path }, preview: diff });
  if (!approval.ok) return { content: deniedMessage(approval.reason), isError: true };
  const again = resolveInside(workspaceOf(ctx), p.path);
  if (!again.ok || again.abs !== p.abs) {
    return { content: `Error: ${p.path} moved while waiting for approval; nothing was deleted.`, isError: true };
  }
  await ctx.beforeWrite(p.abs);
  await fs.promises.unlink(p.abs);
  return { content: `Deleted ${p.path}.`, diff, path: p.rel };
}
