import { type ToolResult, defineTool } from "../types.js";
import fs from "node:fs";
import * as z from "zod";
import { resolveInside, workspaceOf } from "./workspace.js";
import { countLines } from "./checks.js";
import { commitChange } from "./file-change.js";

const schema = () =>
  z.object({
    path: z.string().describe("Path of the new file, relative to the project folder. Missing folders are created."),
    content: z.string().describe("The whole content of the new file."),
  });

export const createFileTool = defineTool({
  name: "create_file",
  description:
    "Create a new file with the given content. It never overwrites: to change an existing file use edit_file, or write_file to replace it whole.",
  schema,
  readOnly: false,
  concurrentSafe: false,
  label: (args) => `create ${args.path}`,
  async run(args, ctx): Promise<ToolResult> {
    const where = resolveInside(workspaceOf(ctx), args.path);
    if (!where.ok) return { content: where.error, isError: true };
    if (lstatExists(where.abs)) {
      return {
        content: `Error: ${args.path} already exists; use edit_file or write_file to change it.`,
        isError: true,
      };
    }
    const count = countLines(args.content);
    const lines = `${count} ${count === 1 ? "line" : "lines"}`;
    // The write creates the file exclusively: one that appeared while the user decided is kept.
    return commitChange(ctx, {
      tool: "create_file",
      args,
      path: args.path,
      abs: where.abs,
      rel: where.rel,
      after: args.content,
      done: `Created ${args.path} (${lines}).`,
      summary: `created (${lines})`,
    });
  },
});

function lstatExists(abs: string): boolean {
  try {
    fs.lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}
