// The best few paths of a PathTable for a query, counted over all of them. Each keystroke that
// extends the query searches only the paths the shorter query matched (a path that holds "abc"
// in order holds "ab"), so typing on narrows an ever smaller set, as fzf's cache does. Long
// passes yield every CHUNK paths, and a caller that has a newer query stops the old one.
import { BLOCK_BITS, BLOCK_MASK, PathTable } from "./path-table.js";
import { Scorer, byRank, makeQuery, quickScore, type Query } from "./fuzzy.js";

export interface Ranked {
  path: string;
  score: number;
}

export interface MatchResult {
  query: string;
  /** Best first, at most `limit`. */
  top: Ranked[];
  /** How many paths match in all. */
  total: number;
  /** How many paths were searched. */
  searched: number;
}

const CHUNK = 32_768;
/**
 * Over more candidates than this, fzf's linear v1 picks QUICK_POOL × limit of them and the full
 * scorer ranks only those: a first keystroke over a million paths costs a scan, not a million
 * dynamic programmes. Typing on soon narrows below it, and every candidate gets the full scorer.
 */
export const QUICK_ABOVE = 100_000;
const QUICK_POOL = 4;

/** Ranks of the empty query: shallow paths first, then shorter, then by name. */
function depthScore(table: PathTable, i: number): number {
  const { text, start, end } = table.at(i);
  let slashes = 0;
  for (let k = start; k < end - 1; k++) if (text[k] === 47) slashes++;
  return -slashes * 1000 - (end - start);
}

export class FileMatcher {
  private readonly scorer = new Scorer();
  /** The last finished query over this table, and the paths it matched. */
  private cache: { table: PathTable; count: number; query: Query; hits: Uint32Array } | undefined;

  /**
   * Ranks the table's paths for `text`. `yieldEvery` is awaited between chunks; when it answers
   * false the pass stops and null is returned (a newer query is waiting).
   */
  async match(
    table: PathTable,
    text: string,
    limit: number,
    yieldEvery: () => Promise<boolean> = () => Promise.resolve(true),
  ): Promise<MatchResult | null> {
    const q = makeQuery(text);
    const c = this.cache;
    // The cache holds only while the table has not grown and the new query extends the old.
    const narrow =
      c !== undefined &&
      c.table === table &&
      c.count === table.count &&
      c.query.fold === q.fold &&
      text.startsWith(c.query.text);
    const candidates = narrow ? c.hits : undefined;
    const n = candidates ? candidates.length : table.count;
    const hits = new Uint32Array(n);
    let found = 0;
    const top: { index: number; score: number; len: number }[] = [];
    const quick = q.bytes.length > 0 && n > QUICK_ABOVE;
    const keep = quick ? limit * QUICK_POOL : limit;
    const { blocks, starts, lens } = table;
    for (let from = 0; from < n; from += CHUNK) {
      if (from > 0 && !(await yieldEvery())) return null;
      const to = Math.min(n, from + CHUNK);
      for (let k = from; k < to; k++) {
        const i = candidates ? candidates[k]! : k;
        const where = starts[i]!;
        const bytes = blocks[where >>> BLOCK_BITS]!;
        const start = where & BLOCK_MASK;
        const end = start + lens[i]!;
        const score =
          q.bytes.length === 0
            ? depthScore(table, i)
            : quick
              ? quickScore(bytes, start, end, q)
              : this.scorer.score(bytes, start, end, q);
        if (score === null) continue;
        hits[found++] = i;
        const len = end - start;
        if (top.length === keep) {
          const worst = top[keep - 1]!;
          if (score < worst.score || (score === worst.score && len >= worst.len)) continue;
          top.pop();
        }
        let at = top.length;
        while (at > 0 && (top[at - 1]!.score < score || (top[at - 1]!.score === score && top[at - 1]!.len > len))) at--;
        top.splice(at, 0, { index: i, score, len });
      }
    }
    this.cache = { table, count: table.count, query: q, hits: hits.slice(0, found) };
    const ranked = top.map((t) => {
      const { text, start, end } = table.at(t.index);
      return { path: table.path(t.index), score: quick ? this.scorer.score(text, start, end, q)! : t.score };
    });
    ranked.sort(byRank);
    ranked.length = Math.min(ranked.length, limit);
    return { query: text, top: ranked, total: found, searched: n };
  }

  /** Forget the narrowed set (the table is being replaced). */
  reset(): void {
    this.cache = undefined;
  }
}
