import { type ToolContext, type ToolResult, defineTool } from "../types.js";
import { outputLimit } from "../output.js";
import path from "node:path";
import * as z from "zod";
import { looksBinary, resolveExisting } from "./checks.js";
import { decodeFile } from "./file-text.js";
import { bufferOr } from "./file-io.js";
import { markSeen, markSeenHash } from "./read-state.js";
import { openRegularFile, readRegularFile } from "./regular-file.js";
import { readSlice } from "./read-slice.js";
import { workspaceOf } from "./workspace.js";
import { isSecretFileName, maskSecretFile } from "../../safety/secret-files.js";

export const READ_DEFAULT_LINES = 2000;
/** A longer line is cut: minified files would otherwise fill the whole output with one line. */
export const READ_MAX_LINE_CHARS = 2000;
/** Bigger files are streamed for the page asked (read-slice.ts), never held whole. */
export const READ_WHOLE_MAX_BYTES = 8 * 1024 * 1024;

const schema = () =>
  z.object({
    path: z.string().describe("Path of the file, relative to the project folder."),
    offset: z.number().int().min(1).optional().describe("First line to show, 1-based. Default 1."),
    limit: z.number().int().min(1).optional().describe(`How many lines to show. Default ${READ_DEFAULT_LINES}.`),
  });

export const readFileTool = defineTool({
  name: "read_file",
  description:
    "Read a text file of the project, shown with line numbers. Use it before editing a file, to copy " +
    "old_string exactly. Large files come in pages; the output says which offset reads on.",
  brief: "Read a file, line-numbered; offset/limit page through a big one. Read before editing.",
  schema,
  readOnly: true,
  concurrentSafe: true,
  label: (args) => `read ${args.path}`,
  async run(args, ctx): Promise<ToolResult> {
    const where = resolveExisting(workspaceOf(ctx), args.path);
    if (!where.ok) return where.result;
    const stat = where.stat;
    if (stat.isDirectory()) {
      return { content: `Error: ${args.path} is a folder; use list_files to see what it holds.`, isError: true };
    }
    if (stat.size > READ_WHOLE_MAX_BYTES) return readBig(args, ctx, where);
    const opened = await readRegularFile(where.abs, args.path, where.root);
    if (!opened.ok) return { content: opened.error, isError: true };
    // The editor's buffer, once the disk says this is a regular file of the project.
    const buf = await bufferOr(ctx, where.abs, opened.buf);
    if (looksBinary(buf)) {
      return { content: `Error: ${args.path} is a binary file; read_file only reads text.`, isError: true };
    }
    // The model has now seen the file (also a page of it: edits are checked against the whole).
    markSeen(ctx, where.abs, buf);
    // A secret by its name (.env, a key file): the model reads its keys, not its values.
    const raw = decodeFile(buf).raw;
    const lines = (opened.unsure || isSecretFileName(where.rel) ? maskSecretFile(raw) : raw).split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    const first = args.offset ?? 1;
    const limit = args.limit ?? READ_DEFAULT_LINES;
    const result = page(
      args.path,
      lines.slice(first - 1, first - 1 + limit),
      first,
      lines.length,
      limit,
      outputLimit(ctx.config),
    );
    // The extension names the language well enough for colour (highlight.js knows ts, py, rs…).
    const ext = path.extname(args.path).slice(1).toLowerCase();
    return ext && !result.isError ? { ...result, lang: ext } : result;
  },
});

/**
 * A page of a file too big to hold: streamed once through the same checked open (a regular file,
 * no link followed), lines before the page counted, the rest counted and hashed (read-slice.ts).
 */
async function readBig(
  args: { path: string; offset?: number | undefined; limit?: number | undefined },
  ctx: ToolContext,
  where: { abs: string; rel: string; root: string },
): Promise<ToolResult> {
  const opened = await openRegularFile(where.abs, args.path, where.root);
  if (!opened.ok) return { content: opened.error, isError: true };
  const first = args.offset ?? 1;
  const limit = args.limit ?? READ_DEFAULT_LINES;
  const charLimit = outputLimit(ctx.config);
  let slice;
  try {
    slice = await readSlice(opened.handle, first, limit, charLimit, READ_MAX_LINE_CHARS * 4 + 4, ctx.signal);
  } finally {
    await opened.handle.close();
  }
  if (slice.binary) {
    return { content: `Error: ${args.path} is a binary file; read_file only reads text.`, isError: true };
  }
  markSeenHash(ctx, where.abs, slice.hash);
  const secret = opened.unsure || isSecretFileName(where.rel);
  const lines = secret ? slice.lines.map((l) => maskSecretFile(l)) : slice.lines;
  const result = page(args.path, lines, first, slice.total, limit, charLimit);
  const ext = path.extname(args.path).slice(1).toLowerCase();
  return ext && !result.isError ? { ...result, lang: ext } : result;
}

/**
 * Numbered lines `     12\tcode` (as cat -n), kept under the output limit so the registry never
 * cuts a page. `lines` holds the file's lines from `first` on (at least those that fit).
 */
function page(p: string, lines: string[], first: number, total: number, limit: number, charLimit: number): ToolResult {
  if (total === 0) return { content: `${p} is empty.`, summary: "empty" };
  if (first > total) {
    return { content: `Error: offset ${first} is past the end of ${p} (${total} lines).`, isError: true };
  }
  const charBudget = Math.max(1000, charLimit - 300);
  const out: string[] = [];
  let used = 0;
  let last = first - 1;
  while (last < total && last - first + 1 < limit && last - first + 1 < lines.length) {
    const line = numbered(last + 1, lines[last - first + 1]!);
    if (out.length > 0 && used + line.length + 1 > charBudget) break;
    out.push(line);
    used += line.length + 1;
    last++;
  }
  if (last < total) {
    out.push(`[showing lines ${first}-${last} of ${total}; call read_file with offset=${last + 1} to read on]`);
  } else if (first > 1) {
    out.push(`[showing lines ${first}-${last} of ${total}]`);
  }
  const summary = first === 1 && last === total ? `${total} lines` : `lines ${first}-${last} of ${total}`;
  return { content: out.join("\n"), summary };
}

function numbered(n: number, raw: string): string {
  let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  if (line.length > READ_MAX_LINE_CHARS) {
    line = `${line.slice(0, READ_MAX_LINE_CHARS)}… [${line.length - READ_MAX_LINE_CHARS} more chars in this line]`;
  }
  return `${String(n).padStart(6)}\t${line}`;
}
