// Fuzzy path scoring, fzf-like: the query's characters appear in the path in order; among the
// ways they can line up, the best-scoring one counts (a dynamic programme over query × path, as
// fzf's v2 and VS Code's scorer do). A character scores more at the start of a path segment,
// after `_ - .`, at a camelCase or digit boundary, right after the previous match (a contiguous
// run), and inside the file's own name (the basename). Gaps cost a little to open and less to
// extend. Works on UTF-8 bytes, so a million packed paths are scored without a string each.
//
// Case: a query without capitals matches either case (ASCII); one with capitals matches exactly
// (fzf's smart case).

export const SCORE_MATCH = 16;
export const GAP_START = -3;
export const GAP_EXTENSION = -1;
/** The first character of a path segment (after "/", or the path's start). */
export const BONUS_SEGMENT = 10;
/** After `_`, `-`, `.` or a space. */
export const BONUS_BOUNDARY = 8;
/** A capital after a small letter, a digit after a non-digit. */
export const BONUS_CAMEL = 7;
/** Matching a separator itself ("/" of `src/ui`). */
export const BONUS_NON_WORD = 8;
/** The least a character right after the previous match earns. */
export const BONUS_CONSECUTIVE = 4;
/** Per character matched inside the basename. */
export const BONUS_BASENAME = 3;
/** The first query character's position bonus counts this many times. */
export const FIRST_CHAR_MULTIPLIER = 2;

const NONE = -1_000_000;

// Character classes of a byte.
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SLASH = 4;
const NON_WORD = 5;
const OTHER = 6; // non-ASCII bytes count as letters

const CLASS = new Uint8Array(256).map((_, b) =>
  b >= 97 && b <= 122
    ? LOWER
    : b >= 65 && b <= 90
      ? UPPER
      : b >= 48 && b <= 57
        ? DIGIT
        : b === 47
          ? SLASH
          : b === 95 || b === 45 || b === 46 || b === 32
            ? NON_WORD
            : b >= 128
              ? OTHER
              : NON_WORD,
);
/** ASCII lower case of a byte. */
export const FOLD = new Uint8Array(256).map((_, b) => (b >= 65 && b <= 90 ? b + 32 : b));

function bonusAt(prev: number, cur: number): number {
  const c = CLASS[cur]!;
  if (c === SLASH || c === NON_WORD) return BONUS_NON_WORD;
  const p = CLASS[prev]!;
  if (p === SLASH) return BONUS_SEGMENT;
  if (p === NON_WORD) return BONUS_BOUNDARY;
  if (p === LOWER && c === UPPER) return BONUS_CAMEL;
  if (p !== DIGIT && c === DIGIT) return BONUS_CAMEL;
  return 0;
}

/** Where a path's name ends: a folder's trailing "/" is not scored. */
function nameEnd(text: Uint8Array, start: number, end: number): number {
  return end > start && text[end - 1] === 47 ? end - 1 : end;
}

/** Where the last segment (the file's own name) starts. */
function basenameStart(text: Uint8Array, start: number, end: number): number {
  let b = end - 1;
  while (b >= start && text[b] !== 47) b--;
  return b + 1;
}

export interface Query {
  bytes: Uint8Array;
  /** Compare case-insensitively (the query has no capitals). */
  fold: boolean;
  text: string;
}

const encoder = new TextEncoder();

export function makeQuery(text: string): Query {
  const fold = text === text.toLowerCase();
  return { bytes: encoder.encode(text), fold, text };
}

/** Scratch rows reused between calls (one scorer per thread; grown as paths demand). */
export class Scorer {
  private prev = new Int32Array(256);
  private cur = new Int32Array(256);
  private bonus = new Int32Array(256);
  /** The position bonus of the run of consecutive matches a cell ends (fzf carries it along the run). */
  private prevRun = new Int32Array(256);
  private curRun = new Int32Array(256);

  /**
   * The score of `text[start, end)` for `q`, or null when the query's characters do not all
   * appear in order. A trailing "/" (a folder) is not part of the name scored.
   */
  score(text: Uint8Array, start: number, end: number, q: Query): number | null {
    const m = q.bytes.length;
    end = nameEnd(text, start, end);
    if (m === 0) return 0;
    const qb = q.bytes;
    const fold = q.fold;
    // Greedy pass: is it a match at all, and where can the first character start?
    let qi = 0;
    let first = -1;
    for (let j = start; j < end; j++) {
      const c = fold ? FOLD[text[j]!]! : text[j]!;
      if (c === qb[qi]) {
        if (qi === 0) first = j;
        if (++qi === m) break;
      }
    }
    if (qi < m) return null;
    // And where must the last one end at the latest?
    let last = end - 1;
    const lastQ = qb[m - 1]!;
    while ((fold ? FOLD[text[last]!]! : text[last]!) !== lastQ) last--;
    const base = basenameStart(text, start, end);

    const n = last - first + 1;
    if (this.prev.length < n) {
      const size = Math.max(n, this.prev.length * 2);
      this.prev = new Int32Array(size);
      this.cur = new Int32Array(size);
      this.bonus = new Int32Array(size);
      this.prevRun = new Int32Array(size);
      this.curRun = new Int32Array(size);
    }
    const bonus = this.bonus;
    for (let x = 0; x < n; x++) {
      const j = first + x;
      bonus[x] = bonusAt(j === start ? 47 : text[j - 1]!, text[j]!) + (j >= base ? BONUS_BASENAME : 0);
    }
    let prev = this.prev;
    let cur = this.cur;
    let prevRun = this.prevRun;
    let curRun = this.curRun;
    // Row 0: where the first query character may sit.
    const q0 = qb[0]!;
    for (let x = 0; x < n; x++) {
      const c = fold ? FOLD[text[first + x]!]! : text[first + x]!;
      prev[x] = c === q0 ? SCORE_MATCH + bonus[x]! * FIRST_CHAR_MULTIPLIER : NONE;
      prevRun[x] = bonus[x]!;
    }
    for (let i = 1; i < m; i++) {
      const qc = qb[i]!;
      let gap = NONE;
      cur[0] = NONE;
      for (let x = 1; x < n; x++) {
        if (x >= 2) gap = Math.max(gap + GAP_EXTENSION, prev[x - 2]! + GAP_START);
        const c = fold ? FOLD[text[first + x]!]! : text[first + x]!;
        if (c !== qc) {
          cur[x] = NONE;
          continue;
        }
        const b = bonus[x]!;
        // A run goes on: it keeps the bonus of where it started (`mod` of lib/mod7 all count as
        // a segment start), so one contiguous run beats the same letters scattered over segments.
        const run = Math.max(b, prevRun[x - 1]!, BONUS_CONSECUTIVE);
        const diag = prev[x - 1]! + run;
        const gapped = gap + b;
        if (diag >= gapped) {
          cur[x] = diag <= NONE / 2 ? NONE : diag + SCORE_MATCH;
          curRun[x] = run;
        } else {
          cur[x] = gapped <= NONE / 2 ? NONE : gapped + SCORE_MATCH;
          curRun[x] = b;
        }
      }
      const t = prev;
      prev = cur;
      cur = t;
      const r = prevRun;
      prevRun = curRun;
      curRun = r;
    }
    let best = NONE;
    for (let x = 0; x < n; x++) if (prev[x]! > best) best = prev[x]!;
    return best <= NONE / 2 ? null : best;
  }
}

/**
 * fzf's v1 for the same scores, without the dynamic programme: the first occurrence of the
 * query's characters, shortened from its end back to the nearest start, scored left to right.
 * Linear in the path; it may miss a better-scoring occurrence further on, so it only picks the
 * candidates that `Scorer.score` then ranks (FileMatcher, over very many paths).
 */
export function quickScore(
  text: Uint8Array,
  start: number,
  end: number,
  q: Query,
  /** Resume the forward scan here, with `matched` query characters already found before it. */
  from = start,
  matched = 0,
  /** Where the basename starts, when the caller knows (negative: found here). */
  base = -1,
): number | null {
  const m = q.bytes.length;
  end = nameEnd(text, start, end);
  if (m === 0) return 0;
  const qb = q.bytes;
  const fold = q.fold;
  let qi = matched;
  let last = from;
  for (; last < end; last++) {
    const c = fold ? FOLD[text[last]!]! : text[last]!;
    if (c === qb[qi] && ++qi === m) break;
  }
  if (qi < m) return null;
  let first = last;
  qi = m - 1;
  for (; first >= start; first--) {
    const c = fold ? FOLD[text[first]!]! : text[first]!;
    if (c === qb[qi]) {
      if (qi === 0) break;
      qi--;
    }
  }
  if (base < 0) base = basenameStart(text, start, end);
  let score = 0;
  let run = 0;
  let runBonus = 0;
  let inGap = false;
  qi = 0;
  for (let k = first; k <= last; k++) {
    const c = fold ? FOLD[text[k]!]! : text[k]!;
    if (c === qb[qi]) {
      let b = bonusAt(k === start ? 47 : text[k - 1]!, text[k]!) + (k >= base ? BONUS_BASENAME : 0);
      if (run === 0) runBonus = b;
      else {
        if (b >= BONUS_BOUNDARY && b > runBonus) runBonus = b;
        b = Math.max(b, runBonus, BONUS_CONSECUTIVE);
      }
      score += SCORE_MATCH + (qi === 0 ? b * FIRST_CHAR_MULTIPLIER : b);
      run++;
      inGap = false;
      qi++;
    } else {
      score += inGap ? GAP_EXTENSION : GAP_START;
      inGap = true;
      run = 0;
    }
  }
  return score;
}

/**
 * How many of the query's characters appear in order in `text[start, stop)`, taken greedily:
 * the state a forward scan of a folder leaves for every path in it to go on from.
 */
export function greedyMatched(text: Uint8Array, start: number, stop: number, q: Query): number {
  const qb = q.bytes;
  const m = qb.length;
  let qi = 0;
  for (let j = start; j < stop && qi < m; j++) {
    if ((q.fold ? FOLD[text[j]!]! : text[j]!) === qb[qi]) qi++;
  }
  return qi;
}

/** One string scored (the few candidates that are not in a packed table, e.g. MCP resources). */
export function scorePath(scorer: Scorer, path: string, q: Query): number | null {
  const bytes = encoder.encode(path);
  return scorer.score(bytes, 0, bytes.length, q);
}

/** Better first: higher score, then the shorter path, then by name. */
export function byRank(a: { score: number; path: string }, b: { score: number; path: string }): number {
  return b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
