// What the model has seen of each file in this session: the hash of the bytes it last read (or
// wrote). Overwriting a whole file needs it, and every edit checks it, so a file the user
// changed since the model read it is never overwritten with the model's stale picture of it.
import { createHash } from "node:crypto";
import type { ToolContext } from "../types.js";

// The hashes live in the session's memory (tools/session-memory.ts), handed over in the ToolContext.
type Memo = Pick<ToolContext, "memory">;

/** An edit of `abs` failed (true) or applied (false): the failures in a row now. */
export function noteEditOutcome(ctx: Memo, abs: string, failed: boolean): number {
  const failures = ctx.memory.editFailures;
  const n = failed ? (failures.get(abs) ?? 0) + 1 : 0;
  if (n === 0) failures.delete(abs);
  else failures.set(abs, n);
  return n;
}

export function hashBytes(buf: Uint8Array): string {
  return createHash("sha256").update(buf).digest("hex");
}

/** The model has now seen these bytes of `abs` (it read them, or a tool of ours wrote them). */
export function markSeen(ctx: Memo, abs: string, buf: Uint8Array): void {
  markSeenHash(ctx, abs, hashBytes(buf));
}

/** The same, for a file hashed as it streamed by (too big to hold: read-slice.ts). */
export function markSeenHash(ctx: Memo, abs: string, hash: string): void {
  ctx.memory.seen.set(abs, hash);
}

export type Freshness = "fresh" | "unread" | "changed";

/** Whether the bytes on disk are what the model last saw of the file. */
export function freshness(ctx: Memo, abs: string, buf: Uint8Array): Freshness {
  const seen = ctx.memory.seen.get(abs);
  if (seen === undefined) return "unread";
  return seen === hashBytes(buf) ? "fresh" : "changed";
}

export function changedMessage(p: string): string {
  return `Error: ${p} changed since you read it; read it again (read_file) before changing it.`;
}
