// @ mentions: `@path` completes against every file of the project (the file index, src/search/,
// ranks them on its own thread) and any other source of candidates (MentionItem: e.g. MCP
// resources as `@server:uri`), fzf-like. On send, the mentioned files are read and attached (cli/attach.ts).
import type { Model } from "../model.js";
import type { MenuRow } from "../steer-types.js";
import { Scorer, byRank, makeQuery, scorePath } from "../../search/fuzzy.js";

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

/**
 * The menu's rows: the file index's last answer (ranked over every path of the project on its
 * thread) and the other sources' items, scored again here for the query as typed now, so a
 * keystroke narrows the list at once while the index's new answer is on its way.
 */
export function mentionRows(model: Model, query: string): MenuRow[] {
  const scorer = new Scorer();
  const q = makeQuery(query);
  const scored: { path: string; detail: string; source: string; score: number; open: boolean }[] = [];
  for (const file of model.files?.paths ?? []) {
    const score = scorePath(scorer, file, q);
    const detail = file.endsWith("/") ? "folder" : "";
    if (score !== null) scored.push({ path: file, detail, source: "", score, open: file.endsWith("/") });
  }
  for (const item of model.mentionItems) {
    const score = scorePath(scorer, item.value, q);
    const open = item.partial === true || item.value.endsWith("/");
    if (score !== null) scored.push({ path: item.value, detail: item.detail ?? "", source: item.source, score, open });
  }
  // An empty query keeps the index's order (shallow paths first).
  if (query !== "") scored.sort(byRank);
  return scored.map((c) => ({
    label: `@${c.path}`,
    detail: c.detail,
    source: c.source,
    insert: `@${c.path} `,
    runs: false,
    keepOpen: c.open,
  }));
}

/** The line under the @ menu: how far the index has got, or how many paths match beyond those shown. */
export function mentionFooter(model: Model, shown: number): string | null {
  const f = model.files;
  if (!f) return null;
  const n = (x: number) => x.toLocaleString("en-US");
  if (f.building) return `indexing… ${n(f.indexed)} paths so far`;
  if (f.query !== model.filesAsked) return null;
  if (f.ranking) return `ranking… best of ${n(f.total)} matches so far`;
  if (f.total > shown) return `${n(shown)} of ${n(f.total)} matches; type more to narrow`;
  return null;
}
