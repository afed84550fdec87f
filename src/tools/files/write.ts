import * as z from "zod";
import { type ToolResult, defineTool } from "../types.js";
import { resolveInside, workspaceOf } from "./workspace.js";
import { countLines, statOrNull } from "./checks.js";
import { commitChange, loadForChange } from "./file-change.js";
import { freshness } from "./read-state.js";
import { toLf } from "./file-text.js";
import { judgeSyntax } from "./edit-syntax.js";

const schema = () =>
  z.object({
    path: z.string().describe("Path of the file, relative to the project folder. Missing folders are created."),
    content: z.string().describe("The whole content of the file, written out in full."),
  });

const linesOf = (text: string) => {
  const n = countLines(text);
  return `${n} ${n === 1 ? "line" : "lines"}`;
};

export const writeFileTool = defineTool({
  name: "write_file",
  description:
    "Write a whole file: create it, or replace all of an existing file's content. To overwrite, read the " +
    "file first in this session (read_file). Best for new files and for rewriting a small file; for a few " +
    "changes in a larger file use edit_file or multi_edit.",
  brief: "Create a file, or replace all of a file's content (read it first).",
  schema,
  readOnly: false,
  concurrentSafe: false,
  label: (args) => `write ${args.path}`,
  async run(args, ctx): Promise<ToolResult> {
    const where = resolveInside(workspaceOf(ctx), args.path);
    if (!where.ok) return { content: where.error, isError: true };
    if (!statOrNull(where.abs)) {
      const syntax = await judgeSyntax(args.path, undefined, toLf(args.content), { nearMiss: false });
      return commitChange(ctx, {
        tool: "write_file",
        args,
        path: args.path,
        abs: where.abs,
        rel: where.rel,
        after: args.content,
        done: `Created ${args.path} (${linesOf(args.content)}).${syntax.ok ? syntax.note : ""}`,
        summary: `created (${linesOf(args.content)})`,
      });
    }
    const load = await loadForChange(ctx, args.path, "write_file");
    if (!load.ok) return load.result;
    const { loaded } = load;
    if (freshness(ctx, loaded.abs, loaded.bytes) === "unread") {
      return {
        content: `Error: ${args.path} exists and you have not read it in this session; read it (read_file) before overwriting it, or use edit_file.`,
        isError: true,
      };
    }
    // The file's own line ends: a CRLF file stays CRLF however the model wrote the content.
    const lf = toLf(args.content);
    const after = loaded.file.eol === "\r\n" ? lf.replace(/\n/g, "\r\n") : lf;
    if (after === loaded.file.raw) return { content: `${args.path} already has this content; nothing was written.` };
    const syntax = await judgeSyntax(args.path, loaded.file.lf, lf, { nearMiss: false });
    return commitChange(ctx, {
      tool: "write_file",
      args,
      path: args.path,
      abs: loaded.abs,
      rel: loaded.rel,
      before: loaded,
      after,
      done: `Wrote ${args.path} (${linesOf(after)}).${syntax.ok ? syntax.note : ""}`,
    });
  },
});
