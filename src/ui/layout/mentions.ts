// @ mentions: `@path` completes against the project's files (listed once, on the first `@`)
// and any other source of candidates (MentionItem: e.g. MCP resources as `@server:uri`), fuzzy
// by path segments. On send, the mentioned files are read and attached (cli/attach.ts).
import type { Model } from "../model.js";
import type { MenuRow } from "../steer-types.js";

export interface MentionToken {
  /** The text after `@` up to the cursor. */
  query: string;
  /** Where the `@` is. */
  start: number;
  /** Where the token ends (it may go on after the cursor). */
  end: number;
}

/** The `@token` the cursor is in: it starts the text or follows whitespace (so mail@host is none). */
export function mentionAt(text: string, cursor: number): MentionToken | null {
  const m = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, cursor));
  if (!m) return null;
  const start = cursor - m[2]!.length - 1;
  const rest = /^[^\s]*/.exec(text.slice(cursor))![0];
  return { query: m[2]!, start, end: cursor + rest.length };
}

export { mentionsIn } from "../../context/mention-parse.js";

const MAX_ROWS = 50;

/**
 * Lower is better; null: no match. Each query segment (split at "/") must match a later path
 * segment in order — as its prefix (best), inside it, or as a subsequence of its letters — and
 * segments skipped over, and a path that goes on past the last match, cost a little.
 */
export function fuzzyPathScore(candidate: string, query: string): number | null {
  const path = candidate.replace(/\/$/, "").toLowerCase();
  const parts = path.split("/");
  const q = query.toLowerCase().split("/").filter(Boolean);
  if (q.length === 0) return parts.length * 10 + path.length / 1000;
  let score = 0;
  let at = 0;
  for (const seg of q) {
    let found = false;
    while (at < parts.length) {
      const part = parts[at++]!;
      const cost = part.startsWith(seg) ? 0 : part.includes(seg) ? 2 : isSubsequence(seg, part) ? 5 : -1;
      if (cost >= 0) {
        score += cost;
        found = true;
        break;
      }
      score += 3;
    }
    if (!found) return null;
  }
  score += (parts.length - at) * 4;
  return score + path.length / 1000;
}

function isSubsequence(needle: string, hay: string): boolean {
  let i = 0;
  for (const ch of hay) if (ch === needle[i]) i++;
  return i === needle.length;
}

export function mentionRows(model: Model, query: string): MenuRow[] {
  const scored: { value: string; detail: string; source: string; score: number; open: boolean }[] = [];
  for (const file of model.files ?? []) {
    const score = fuzzyPathScore(file, query);
    const detail = file.endsWith("/") ? "folder" : "";
    if (score !== null) scored.push({ value: file, detail, source: "", score, open: file.endsWith("/") });
  }
  for (const item of model.mentionItems) {
    const score = fuzzyPathScore(item.value, query);
    const open = item.partial === true || item.value.endsWith("/");
    if (score !== null) scored.push({ value: item.value, detail: item.detail ?? "", source: item.source, score, open });
  }
  scored.sort((a, b) => a.score - b.score || a.value.localeCompare(b.value));
  return scored.slice(0, MAX_ROWS).map((c) => ({
    label: `@${c.value}`,
    detail: c.detail,
    source: c.source,
    insert: `@${c.value} `,
    runs: false,
    keepOpen: c.open,
  }));
}
