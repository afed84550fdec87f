// Shared checks of the file tools: what exists, what is text, and the messages the model reads.
import fs from "node:fs";
import { resolveInside, type Workspace } from "./workspace.js";
import { editDistance } from "./edit-text.js";
import path from "node:path";

export { looksBinary } from "../../context/binary.js";

export function statOrNull(abs: string): fs.Stats | null {
  try {
    return fs.statSync(abs);
  } catch {
    return null;
  }
}

/** `Error: <p> does not exist.` with up to three similar names from the same folder. */
export function missingMessage(p: string, abs: string): string {
  const similar = similarNames(abs).map((name) => path.posix.join(path.posix.dirname(p), name));
  const hint = similar.length > 0 ? ` Did you mean: ${similar.join(", ")}?` : "";
  return `Error: ${p} does not exist.${hint}`;
}

function similarNames(abs: string): string[] {
  const wanted = path.basename(abs).toLowerCase();
  const stem = wanted.replace(/\.[^.]*$/, "");
  let names: string[];
  try {
    names = fs.readdirSync(path.dirname(abs));
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, lower: name.toLowerCase() }))
    .filter(({ lower }) => lower === wanted || (stem.length >= 3 && lower.startsWith(stem)) || nearName(lower, wanted))
    .map(({ name }) => name)
    .sort()
    .slice(0, 3);
}

/** At most two edits apart (names of very different lengths are not compared at all). */
function nearName(a: string, b: string): boolean {
  return Math.abs(a.length - b.length) <= 2 && editDistance(a, b) <= 2;
}

export function deniedMessage(reason: string): string {
  return `Denied by the user: ${reason}`;
}

export function countLines(text: string): number {
  if (text === "") return 0;
  return text.replace(/\n$/, "").split("\n").length;
}

/**
 * The first check of every file tool: the path is inside the project and exists. The failure is
 * the tool result the model sees.
 */
export function resolveExisting(
  ws: Workspace,
  p: string,
):
  | { ok: true; abs: string; rel: string; root: string; inRoot: string; stat: fs.Stats }
  | { ok: false; result: { content: string; isError: true } } {
  const where = resolveInside(ws, p);
  if (!where.ok) return { ok: false, result: { content: where.error, isError: true } };
  const stat = statOrNull(where.abs);
  if (!stat) return { ok: false, result: { content: missingMessage(p, where.abs), isError: true } };
  return { ...where, stat };
}
