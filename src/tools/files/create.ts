import { type ToolResult, defineTool } from "../types.js";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { resolveInside } from "./workspace.js";
import { fileDiff } from "./diff.js";
import { countLines, deniedMessage } from "./checks.js";

const schema = z.object({
  path: z.string().describe("Path of the new file, relative to the project folder. Missing folders are created."),
  content: z.string().describe("The whole content of the new file."),
});

export const createFileTool = defineTool({
  name: "create_file",
  description:
    "Create a new file with the given content. It never overwrites: to change an existing file use edit_file.",
  schema,
  readOnly: false,
  concurrentSafe: false,
  label: (args) => `create ${args.path}`,
  async run(args, ctx): Promise<ToolResult> {
    const where = resolveInside(ctx.cwd, args.path);
    if (!where.ok) return { content: where.error, isError: true };
    const alreadyExists = `Error: ${args.path} already exists; use edit_file to change it.`;
    if (lstatExists(where.abs)) return { content: alreadyExists, isError: true };

    const diff = fileDiff(where.rel, "", args.content);
    const approval = await ctx.approve({ tool: "create_file", kind: "edit", args, preview: diff });
    if (!approval.ok) return { content: deniedMessage(approval.reason), isError: true };

    await ctx.beforeWrite(where.abs);
    await fs.promises.mkdir(path.dirname(where.abs), { recursive: true });
    try {
      // "wx": a file that appeared while the user was deciding is still not overwritten.
      await fs.promises.writeFile(where.abs, args.content, { flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") return { content: alreadyExists, isError: true };
      throw err;
    }
    const count = countLines(args.content);
    const lines = `${count} ${count === 1 ? "line" : "lines"}`;
    return {
      content: `Created ${args.path} (${lines}).`,
      diff,
      path: where.rel,
      summary: `created (${lines})`,
    };
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
