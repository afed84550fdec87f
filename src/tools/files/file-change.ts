// The path every file-changing tool takes: load the file as text (file-text.ts), refuse one the
// model has a stale picture of (read-state.ts), show the exact diff for approval, and write the
// approved bytes only if the file is still what was approved, through safe-write.ts.
import fs from "node:fs";
import type { ApprovalKind, ToolContext, ToolResult } from "../types.js";
import { deniedMessage, looksBinary, resolveExisting } from "./checks.js";
import { decodeFile, encodeFile, type FileText } from "./file-text.js";
import { changedMessage, freshness, hashBytes, markSeen } from "./read-state.js";
import { writeChecked } from "./safe-write.js";
import { readRegularFile } from "./regular-file.js";
import { workspaceOf } from "./workspace.js";
import { bufferOr, readBytes, writeThroughClient } from "./file-io.js";
import { diffHunks, fileDiff } from "./diff.js";

export interface Loaded {
  path: string;
  abs: string;
  rel: string;
  stat: fs.Stats;
  bytes: Buffer;
  file: FileText;
}

export type LoadResult = { ok: true; loaded: Loaded } | { ok: false; result: ToolResult };

const fail = (content: string): { ok: false; result: ToolResult } => ({
  ok: false,
  result: { content, isError: true },
});

/** An existing text file of the project, unless the model last saw other bytes of it. */
export async function loadForChange(ctx: ToolContext, p: string, tool: string): Promise<LoadResult> {
  const where = resolveExisting(workspaceOf(ctx), p);
  if (!where.ok) return { ok: false, result: where.result };
  if (where.stat.isDirectory()) return fail(`Error: ${p} is a folder, not a file.`);
  // Not a FIFO (the read would hang), nor a hard link to a file outside the project.
  const opened = await readRegularFile(where.abs, p, where.root);
  if (!opened.ok) return fail(opened.error);
  // The editor's buffer, once the disk says this is a regular file of the project.
  const bytes = await bufferOr(ctx, where.abs, opened.buf);
  if (looksBinary(bytes)) return fail(`Error: ${p} is a binary file; ${tool} only changes text.`);
  if (freshness(ctx, where.abs, bytes) === "changed") return fail(changedMessage(p));
  return {
    ok: true,
    loaded: { path: p, abs: where.abs, rel: where.rel, stat: where.stat, bytes, file: decodeFile(bytes) },
  };
}

export interface Change {
  tool: string;
  kind?: ApprovalKind;
  args: Record<string, unknown>;
  path: string;
  abs: string;
  rel: string;
  /** The file before (undefined: a new file) and its new text. */
  before?: { stat: fs.Stats; bytes: Buffer; file: FileText };
  after: string;
  /** What the model is told once it is written. */
  done: string;
  /** Show the model the hunks of what was written (edits; not a whole file it wrote itself). */
  echo?: boolean;
  summary?: string;
}

/** Ask with the diff of exactly what will be written, then write it if nothing moved meanwhile. */
export async function commitChange(ctx: ToolContext, change: Change): Promise<ToolResult> {
  const enc = encodeFile(change.before?.file ?? { encoding: "utf8", bom: false }, change.after);
  if (!enc.ok) return { content: `Error: ${change.path}: ${enc.error}.`, isError: true };
  const diff = fileDiff(change.rel, change.before?.file.raw ?? "", change.after);
  const approval = await ctx.approve({
    tool: change.tool,
    kind: change.kind ?? "edit",
    args: change.args,
    preview: diff,
  });
  if (!approval.ok) return { content: deniedMessage(approval.reason), isError: true };
  if (change.before) {
    const now = await readBytes(ctx, change.abs).catch(() => undefined);
    if (!now || hashBytes(now) !== hashBytes(change.before.bytes)) {
      return {
        content: `Error: ${change.path} changed while waiting for approval; read it again and redo the change.`,
        isError: true,
      };
    }
  }
  await ctx.beforeWrite(change.abs);
  const target = { ...workspaceOf(ctx), path: change.path, abs: change.abs, before: change.before?.stat };
  const written = ctx.files?.write
    ? await writeThroughClient(ctx.files.write, target, enc.bytes.toString(change.before?.file.encoding ?? "utf8"))
    : await writeChecked(target, enc.bytes);
  if (!written.ok) return { content: written.error, isError: true };
  markSeen(ctx, change.abs, enc.bytes);
  return {
    content: change.echo ? `${change.done}\n${diffHunks(diff)}` : change.done,
    diff,
    path: change.rel,
    ...(change.summary ? { summary: change.summary } : {}),
  };
}
