import { type ToolResult, defineTool } from "../types.js";
import fs from "node:fs";
import { z } from "zod";
import { diffHunks, fileDiff } from "./diff.js";
import { deniedMessage, looksBinary, resolveExisting } from "./checks.js";

const schema = z.object({
  path: z.string().describe("Path of the file to change, relative to the project folder."),
  old_string: z.string().describe("The exact text to replace, copied from the file including whitespace."),
  new_string: z.string().describe("The text to put in its place."),
  replace_all: z.boolean().optional().describe("Replace every occurrence instead of exactly one. Default false."),
});

export const editFileTool = defineTool({
  name: "edit_file",
  description:
    "Change an existing file by replacing old_string with new_string. old_string must occur exactly once " +
    "(add surrounding lines to make it unique) unless replace_all is true. Read the file first.",
  schema,
  readOnly: false,
  concurrentSafe: false,
  label: (args) => `edit ${args.path}`,
  async run(args, ctx): Promise<ToolResult> {
    const where = resolveExisting(ctx.cwd, args.path);
    if (!where.ok) return where.result;
    const stat = where.stat;
    if (stat.isDirectory()) return { content: `Error: ${args.path} is a folder, not a file.`, isError: true };
    if (args.old_string === "") {
      return {
        content:
          "Error: old_string is empty. To add text, include a nearby line in old_string; to make a new file use create_file.",
        isError: true,
      };
    }
    if (args.old_string === args.new_string) {
      return { content: "Error: old_string and new_string are the same; nothing would change.", isError: true };
    }
    const buf = await fs.promises.readFile(where.abs);
    if (looksBinary(buf))
      return { content: `Error: ${args.path} is a binary file; edit_file only edits text.`, isError: true };
    const before = buf.toString("utf8");

    const planned = plan(before, args.old_string, args.new_string, args.replace_all === true);
    if (planned.count === 0) {
      return {
        content: `Error: old_string not found in ${args.path}. Read the file again and copy the text exactly, including whitespace.`,
        isError: true,
      };
    }
    if (planned.count > 1 && !args.replace_all) {
      return {
        content: `Error: old_string occurs ${planned.count} times in ${args.path}. Add surrounding lines to make it unique, or set replace_all to true.`,
        isError: true,
      };
    }

    const diff = fileDiff(where.rel, before, planned.after);
    const approval = await ctx.approve({ tool: "edit_file", kind: "edit", args, preview: diff });
    if (!approval.ok) return { content: deniedMessage(approval.reason), isError: true };
    if ((await fs.promises.readFile(where.abs, "utf8")) !== before) {
      return {
        content: `Error: ${args.path} changed while waiting for approval; read it again and redo the edit.`,
        isError: true,
      };
    }

    await ctx.beforeWrite(where.abs);
    await fs.promises.writeFile(where.abs, planned.after);
    const times = planned.count === 1 ? "1 occurrence" : `${planned.count} occurrences`;
    return { content: `Edited ${args.path}: replaced ${times}.\n${diffHunks(diff)}`, diff, path: where.rel };
  },
});

/**
 * Counts and replaces. A model usually writes "\n" line ends; in a CRLF file the same text
 * is tried again with "\r\n" so such edits still match.
 */
function plan(text: string, oldString: string, newString: string, all: boolean): { count: number; after: string } {
  let count = occurrences(text, oldString);
  if (count === 0 && text.includes("\r\n") && oldString.includes("\n") && !oldString.includes("\r\n")) {
    oldString = oldString.replace(/\n/g, "\r\n");
    newString = newString.replace(/\r?\n/g, "\r\n");
    count = occurrences(text, oldString);
  }
  if (count === 0 || (count > 1 && !all)) return { count, after: text };
  // split/join, not String.replace: "$&" and friends in new_string must stay literal.
  return { count, after: text.split(oldString).join(newString) };
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
