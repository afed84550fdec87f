import { type ToolResult, defineTool } from "../types.js";
import fs from "node:fs";
import path from "node:path";
import * as z from "zod";
import { workspaceOf } from "./workspace.js";
import { ProjectIgnore } from "./gitignore.js";
import { resolveExisting } from "./checks.js";
import { SearchBudget, capNote } from "./search-budget.js";

export const LIST_DEFAULT_DEPTH = 3;
export const LIST_MAX_DEPTH = 10;
export const LIST_MAX_ENTRIES = 500;

const schema = () =>
  z.object({
    path: z
      .string()
      .optional()
      .describe("Folder to list, relative to the project folder. Default: the project folder."),
    depth: z.number().int().min(1).optional().describe(`How many levels deep to go. Default ${LIST_DEFAULT_DEPTH}.`),
  });

export const listFilesTool = defineTool({
  name: "list_files",
  description:
    "Show the files and folders of a project folder as a tree, skipping what .gitignore ignores. " +
    "Use it to get to know the layout; use glob_files to find files by name.",
  schema,
  readOnly: true,
  concurrentSafe: true,
  label: (args) => `list ${args.path ?? "."}`,
  async run(args, ctx): Promise<ToolResult> {
    const p = args.path ?? ".";
    const where = resolveExisting(workspaceOf(ctx), p);
    if (!where.ok) return where.result;
    const stat = where.stat;
    if (!stat.isDirectory()) return { content: `Error: ${p} is a file; use read_file to read it.`, isError: true };

    const depth = Math.min(args.depth ?? LIST_DEFAULT_DEPTH, LIST_MAX_DEPTH);
    const ignore = new ProjectIgnore(where.root);
    const tree = new TreeWriter(LIST_MAX_ENTRIES, new SearchBudget(ctx, "entries"), ctx.signal);
    await walk(where.abs, where.inRoot === "." ? "" : where.inRoot, 1, depth, ignore, tree);
    if (ctx.signal.aborted) return { content: "Error: interrupted by the user.", isError: true };

    const lines = [`${where.rel === "." ? "." : where.rel}/`, ...tree.lines];
    if (tree.shown === 0) lines.push("  (empty)");
    const total = tree.shown + tree.hidden;
    const note = capNote(tree.shown, total, "entry", tree.budget.stopped, "list a folder inside it, or less deep");
    if (note) lines.push(note);
    return { content: lines.join("\n"), summary: `${total}${tree.budget.stopped ? "+" : ""} entries` };
  },
});

/** The lines shown, and how many more were counted until the budget ran out (or Esc). */
class TreeWriter {
  readonly lines: string[] = [];
  shown = 0;
  hidden = 0;
  constructor(
    private readonly max: number,
    readonly budget: SearchBudget,
    private readonly signal: AbortSignal,
  ) {}
  add(level: number, text: string): void {
    if (this.shown < this.max) {
      this.lines.push(`${"  ".repeat(level)}${text}`);
      this.shown++;
    } else {
      this.hidden++;
    }
  }
  get done(): boolean {
    return this.signal.aborted || this.budget.stopped !== undefined;
  }
  /** After each folder: should the walk stop? */
  check(): boolean {
    return this.done || this.budget.over(this.shown + this.hidden, this.max);
  }
}

/**
 * Folders first, then files, each sorted by name; ignored folders are not entered at all.
 * Asynchronous, so Esc reaches it on a tree of a million files.
 */
async function walk(
  abs: string,
  rel: string,
  level: number,
  maxDepth: number,
  ignore: ProjectIgnore,
  tree: TreeWriter,
): Promise<void> {
  if (tree.check()) return;
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(abs, { withFileTypes: true });
  } catch {
    return;
  }
  const visible = entries
    .map((e) => ({ name: e.name, isDir: e.isDirectory(), rel: rel ? `${rel}/${e.name}` : e.name }))
    .filter((e) => !ignore.ignores(e.rel, e.isDir))
    .sort((a, b) => (a.isDir === b.isDir ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.isDir ? -1 : 1));
  for (const entry of visible) {
    tree.add(level, entry.isDir ? `${entry.name}/` : entry.name);
    if (entry.isDir && level < maxDepth && !tree.done) {
      await walk(path.join(abs, entry.name), entry.rel, level + 1, maxDepth, ignore, tree);
    }
  }
}
