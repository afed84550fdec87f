// The best few paths of a PathTable for a query, counted over all of them. Each keystroke that
// extends the query searches only the paths the shorter query matched (a path that holds "abc"
// in order holds "ab"), so typing on narrows an ever smaller set, as fzf's cache does. Before a
// path's bytes are read, its character mask must hold the query's; over very many paths, the
// paths of one folder share the scan of the folder's part. The best are kept in a bounded heap.
// Long passes yield every CHUNK paths, with the best so far on offer, and a caller that has a
// newer query stops the old one.
import { BLOCK_BITS, BLOCK_MASK, NO_PARENT, PathTable, charMask } from "./path-table.js";
import { Scorer, byRank, greedyMatched, makeQuery, quickScore, type Query } from "./fuzzy.js";

export interface Ranked {
  path: string;
  score: number;
}

export interface MatchResult {
  query: string;
  /** Best first, at most `limit`. */
  top: Ranked[];
  /** How many paths match in all (so far, in an answer given before the pass ends). */
  total: number;
  /** How many paths were searched. */
  searched: number;
}

/** What a pass has found so far, offered between chunks (a caller may show it before the end). */
export type SoFar = () => MatchResult;

/** Counts of a pass's work, for tests: what was read, not how long it took. */
export interface PassWork {
  /** Paths considered (the table's, or the previous query's matches). */
  candidates: number;
  /** Paths whose bytes were scanned or scored. */
  scanned: number;
  /** Paths answered from their folder's scan without reading their own bytes. */
  fromFolder: number;
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

/**
 * The best `size` entries seen, worst at the root: by score, then the shorter, then the earlier
 * (the order of a full pass), so the set kept never depends on which candidates came first.
 */
class TopHeap {
  readonly score: Int32Array;
  readonly len: Uint16Array;
  readonly index: Uint32Array;
  length = 0;

  constructor(readonly size: number) {
    this.score = new Int32Array(size);
    this.len = new Uint16Array(size);
    this.index = new Uint32Array(size);
  }

  /** Entry a ranks below entry b. */
  private worse(a: number, b: number): boolean {
    const { score, len, index } = this;
    return (
      score[a]! < score[b]! ||
      (score[a] === score[b] && (len[a]! > len[b]! || (len[a] === len[b] && index[a]! > index[b]!)))
    );
  }

  offer(i: number, s: number, l: number): void {
    const { score, len, index } = this;
    if (this.length < this.size) {
      let at = this.length++;
      score[at] = s;
      len[at] = l;
      index[at] = i;
      while (at > 0) {
        const up = (at - 1) >> 1;
        if (!this.worse(at, up)) break;
        this.swap(at, up);
        at = up;
      }
      return;
    }
    // Not better than the worst kept: candidates come in index order, so a tie loses.
    if (s < score[0]! || (s === score[0] && l >= len[0]!)) return;
    score[0] = s;
    len[0] = l;
    index[0] = i;
    let at = 0;
    for (;;) {
      const l2 = 2 * at + 1;
      const r = l2 + 1;
      let worst = at;
      if (l2 < this.length && this.worse(l2, worst)) worst = l2;
      if (r < this.length && this.worse(r, worst)) worst = r;
      if (worst === at) return;
      this.swap(at, worst);
      at = worst;
    }
  }

  private swap(a: number, b: number): void {
    const { score, len, index } = this;
    [score[a], score[b]] = [score[b]!, score[a]!];
    [len[a], len[b]] = [len[b]!, len[a]!];
    [index[a], index[b]] = [index[b]!, index[a]!];
  }
}

export class FileMatcher {
  private readonly scorer = new Scorer();
  /** The last finished query over this table, and the paths it matched. */
  private cache: { table: PathTable; count: number; query: Query; hits: Uint32Array } | undefined;
  /** The last pass's work (tests count it). */
  work: PassWork = { candidates: 0, scanned: 0, fromFolder: 0 };

  /**
   * Ranks the table's paths for `text`. `between` is awaited between chunks, with what the pass
   * has found so far; when it answers false the pass stops and null is returned (a newer query
   * is waiting).
   */
  async match(
    table: PathTable,
    text: string,
    limit: number,
    between: (soFar: SoFar) => Promise<boolean> = () => Promise.resolve(true),
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
    const m = q.bytes.length;
    const quick = m > 0 && n > QUICK_ABOVE;
    const top = new TopHeap(quick ? limit * QUICK_POOL : limit);
    const qmask = charMask(q.bytes, 0, m);
    const { blocks, starts, lens, masks, parents } = table;
    const work: PassWork = { candidates: n, scanned: 0, fromFolder: 0 };
    this.work = work;
    // The folder the last path was in, and what scanning its part found: how many query
    // characters it held in order, and (when it held them all) the score every path in it gets.
    let folder = -1;
    let folderMatched = 0;
    let folderScore = 0;
    const soFar = (): MatchResult => this.result(table, text, q, quick, top, limit, found, n);
    for (let from = 0; from < n; from += CHUNK) {
      if (from > 0 && !(await between(soFar))) return null;
      const to = Math.min(n, from + CHUNK);
      for (let k = from; k < to; k++) {
        const i = candidates ? candidates[k]! : k;
        if ((masks[i]! & qmask) !== qmask) continue;
        const where = starts[i]!;
        const bytes = blocks[where >>> BLOCK_BITS]!;
        const start = where & BLOCK_MASK;
        const end = start + lens[i]!;
        let score: number | null;
        if (m === 0) score = depthScore(table, i);
        else if (!quick) {
          work.scanned++;
          score = this.scorer.score(bytes, start, end, q);
        } else {
          const parent = parents[i]!;
          const dirLen = parent === NO_PARENT ? 0 : lens[parent]!;
          if (parent !== folder) {
            folder = parent;
            folderMatched = greedyMatched(bytes, start, start + dirLen, q);
            // Held whole by the folder's part: the same window, so the same score, for every path in it.
            if (folderMatched === m) folderScore = quickScore(bytes, start, end, q)!;
          } else if (folderMatched === m) {
            work.fromFolder++;
            hits[found++] = i;
            top.offer(i, folderScore, end - start);
            continue;
          }
          work.scanned++;
          score =
            folderMatched === m
              ? folderScore
              : quickScore(bytes, start, end, q, start + dirLen, folderMatched, start + dirLen);
        }
        if (score === null) continue;
        hits[found++] = i;
        top.offer(i, score, end - start);
      }
    }
    this.cache = { table, count: table.count, query: q, hits: hits.slice(0, found) };
    return soFar();
  }

  /** The kept entries, best first; a quick pass's pool is scored again by the full scorer. */
  private result(
    table: PathTable,
    text: string,
    q: Query,
    quick: boolean,
    top: TopHeap,
    limit: number,
    total: number,
    searched: number,
  ): MatchResult {
    const ranked: Ranked[] = [];
    for (let k = 0; k < top.length; k++) {
      const i = top.index[k]!;
      const { text: bytes, start, end } = table.at(i);
      ranked.push({ path: table.path(i), score: quick ? this.scorer.score(bytes, start, end, q)! : top.score[k]! });
    }
    ranked.sort(byRank);
    ranked.length = Math.min(ranked.length, limit);
    return { query: text, top: ranked, total, searched };
  }

  /** Forget the narrowed set (the table is being replaced). */
  reset(): void {
    this.cache = undefined;
  }
}
