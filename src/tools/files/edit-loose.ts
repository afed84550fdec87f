// The two loosest ways to find old_string (issue 24), tried only after every stricter one:
// - whitespace-blind: the text equal once all whitespace is ignored (`if(x>0){return true;}` for
//   code that is spaced or spread over lines), accepted when unique. Only the characters the model
//   changed are replaced, so the file keeps its own layout around them.
// - a small typo in a short string (`getUserNaem` for `getUserName`): one region clearly closest,
//   a few characters apart, and no identifier changing meaning. A case-only difference, a
//   different number or operator, or a name the file uses elsewhere is refused.
import type { Splice } from "./file-text.js";
import { edgesHold, osaDistance, tokensOf as tokens } from "./edit-text.js";
import { rebuild, type IndentStyle } from "./edit-indent.js";

const MIN_BLIND = 8;

export type LooseFound = { splices: Splice[]; line: number }[];

/**
 * Every place old_string stands in the file once whitespace is ignored. Only the tokens the model
 * changed are replaced; lines the new text adds take the file's indentation at that place.
 */
export function whitespaceBlind(
  file: string,
  oldText: string,
  newText: string,
  style: IndentStyle,
  lineAt: (o: number) => number,
): LooseFound {
  const o = tokens(oldText);
  const wanted = o.tok.join("");
  if (wanted.length < MIN_BLIND) return [];
  const n = tokens(newText);
  let head = 0;
  while (head < o.tok.length && head < n.tok.length && o.tok[head] === n.tok[head]) head++;
  let tail = 0;
  while (
    tail < o.tok.length - head &&
    tail < n.tok.length - head &&
    o.tok[o.tok.length - 1 - tail] === n.tok[n.tok.length - 1 - tail]
  )
    tail++;
  const changedOld = o.tok.length - head - tail;
  const changedNew = n.tok.length - head - tail;
  const out: LooseFound = [];
  // The file without its whitespace, searched natively; each hit is tokenized on its own.
  const compact = file.replace(/\s+/g, "");
  if (!compact.includes(wanted)) return [];
  const at = nonSpaceOffsets(file);
  for (let c = compact.indexOf(wanted); c !== -1; c = compact.indexOf(wanted, c + 1)) {
    const from = at[c]!;
    const to = at[c + wanted.length - 1]! + 1;
    // Whole tokens only: `xfoo` is not `foo`.
    if (/[\w$]/.test(file[from] ?? "") && /[\w$]/.test(file[from - 1] ?? "")) continue;
    if (/[\w$]/.test(file[to - 1] ?? "") && /[\w$]/.test(file[to] ?? "")) continue;
    if (!edgesHold(file, from, to, oldText)) continue;
    const f = tokens(file.slice(from, to));
    if (f.tok.length !== o.tok.length || f.tok.some((t, i) => t !== o.tok[i])) continue;
    let start: number;
    let end: number;
    if (changedOld > 0) {
      start = from + f.start[head]!;
      end = from + f.end[head + changedOld - 1]!;
    } else {
      start = end = head > 0 ? from + f.end[head - 1]! : from;
    }
    let text = "";
    if (changedNew > 0) {
      const nFrom = n.start[head]!;
      const nTo = n.end[head + changedNew - 1]!;
      // An insertion keeps the whitespace the model put before it; a replacement starts at its token.
      const lead = changedOld === 0 && head > 0 ? newText.slice(n.end[head - 1]!, nFrom) : "";
      text = lead + newText.slice(nFrom, nTo);
      if (changedOld === 0 && tail > 0) text += newText.slice(nTo, n.start[head + changedNew]!);
      text = indentAt(file, start, newText, nFrom, text, style);
    }
    out.push({ splices: [{ start, end, text }], line: lineAt(from) });
  }
  return out;
}

/** Where each non-whitespace character of `text` stands in it. */
function nonSpaceOffsets(text: string): Int32Array {
  const out = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // The characters /\s/ matches below U+00A1; others are rare enough to test with the regex.
    if (c === 32 || (c >= 9 && c <= 13) || c === 160 || (c > 160 && /\s/.test(text[i]!))) continue;
    out[n++] = i;
  }
  return out.subarray(0, n);
}

/** Lines after the first of an inserted text, moved to the file's indentation where it lands. */
function indentAt(file: string, at: number, model: string, modelAt: number, text: string, style: IndentStyle): string {
  if (!text.includes("\n")) return text;
  const fileLine = file.slice(file.lastIndexOf("\n", at - 1) + 1);
  const modelLine = model.slice(model.lastIndexOf("\n", modelAt - 1) + 1);
  const fileBase = /^[ \t]*/.exec(fileLine)![0];
  const modelBase = /^[ \t]*/.exec(modelLine)![0];
  const [head, ...rest] = text.split("\n");
  const moved = rebuild(
    [fileBase + "x"],
    [modelBase + "x"],
    rest.map((l) => l),
    style,
  );
  return [head, ...moved].join("\n");
}

const MAX_TYPO_TEXT = 200;
const MAX_TYPO_LINES = 3;
const MIN_IDENT = 4;
const MAX_WINDOWS = 400;
/** The closest region must beat the next one by this much. */
const MARGIN = 2;

interface Region {
  start: number;
  end: number;
  distance: number;
}

export type TypoResult =
  | { ok: true; splice: Splice; line: number; meant: { old: string; new: string } }
  | { ok: false; why?: string }
  | undefined;

/** old_string as a short text with a typo or two in one of its identifiers. */
export function smallTypo(file: string, oldText: string, newText: string, lineAt: (o: number) => number): TypoResult {
  const want = oldText.trim();
  if (want.length < 6 || want.length > MAX_TYPO_TEXT || want.split("\n").length > MAX_TYPO_LINES) return undefined;
  const limit = want.length >= 40 ? 3 : 2;
  const regions = candidates(file, want, limit + MARGIN);
  if (regions.length === 0) return undefined;
  regions.sort((a, b) => a.distance - b.distance);
  const best = regions[0]!;
  if (best.distance === 0 || best.distance > limit) return undefined;
  const rival = regions.find((r) => r.end <= best.start || r.start >= best.end);
  if (rival && rival.distance < best.distance + MARGIN) {
    return { ok: false, why: `it is about as close to line ${lineAt(rival.start)} as to line ${lineAt(best.start)}` };
  }
  if (!edgesHold(file, best.start, best.end, oldText))
    return { ok: false, why: "its line goes on past the end of old_string" };
  const found = file.slice(best.start, best.end);
  const renames = identifierTypos(want, found, file);
  if (!renames.ok) return { ok: false, why: renames.why };
  let text = newText;
  let meantOld = want;
  for (const [typo, right] of renames.pairs) {
    text = text.replace(new RegExp(`\\b${typo}\\b`, "g"), right);
    meantOld = meantOld.replace(new RegExp(`\\b${typo}\\b`, "g"), right);
  }
  // new_string is written where old_string's trimmed text was: its own edges are trimmed the same way.
  const lead = oldText.length - oldText.trimStart().length;
  const trail = oldText.length - oldText.trimEnd().length;
  text = text.slice(
    Math.min(lead, text.length - text.trimStart().length),
    text.length - Math.min(trail, text.length - text.trimEnd().length),
  );
  return {
    ok: true,
    splice: { start: best.start, end: best.end, text },
    line: lineAt(best.start),
    meant: { old: meantOld, new: text },
  };
}

const TOKEN = /[A-Za-z_$][\w$]*|\d[\w.]*|\S/g;

/** The identifier pairs (typo, file's spelling) when only identifiers differ, each by a typo. */
function identifierTypos(
  want: string,
  found: string,
  file: string,
): { ok: true; pairs: [string, string][] } | { ok: false; why: string } {
  const a = want.match(TOKEN) ?? [];
  const b = found.match(TOKEN) ?? [];
  if (a.length !== b.length) return { ok: false, why: "more than a typo differs" };
  const pairs: [string, string][] = [];
  for (let k = 0; k < a.length; k++) {
    const x = a[k]!;
    const y = b[k]!;
    if (x === y) continue;
    const ident = /^[A-Za-z_$]/;
    if (!ident.test(x) || !ident.test(y))
      return { ok: false, why: `"${x}" and "${y}" differ, which changes what the code does` };
    if (x.toLowerCase() === y.toLowerCase())
      return { ok: false, why: `"${x}" and "${y}" differ in case only: they are different names` };
    if (Math.min(x.length, y.length) < MIN_IDENT || osaDistance(x, y) > 2) {
      return { ok: false, why: `"${x}" is another name than "${y}"` };
    }
    if (new RegExp(`\\b${x.replace(/\$/g, "\\$")}\\b`).test(file)) {
      return { ok: false, why: `"${x}" is a name the file uses elsewhere: it is not a typo of "${y}"` };
    }
    pairs.push([x, y]);
  }
  return { ok: true, pairs };
}

/** Regions of the file within `max` edits of `want`, searched near lines sharing one of its words. */
function candidates(file: string, want: string, max: number): Region[] {
  const words = [...new Set(want.match(/[A-Za-z_$][\w$]{2,}/g) ?? [])];
  if (words.length === 0) return [];
  const lines = file.split("\n");
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  const span = want.split("\n").length;
  // A typo spoils a word or two: a window holding fewer of the others is no candidate.
  const need = Math.max(1, words.length - 2);
  const masks = lines.map((l) => words.reduce((m, w, k) => (k < 31 && l.includes(w) ? m | (1 << k) : m), 0));
  const out: Region[] = [];
  let windows = 0;
  for (let from = 0; from + span <= Math.max(span, lines.length); from++) {
    const to = Math.min(lines.length, from + span);
    let mask = 0;
    for (let i = from; i < to; i++) mask |= masks[i]!;
    if (bits(mask) < need) continue;
    // Old_string's words all over the file: no region can be clearly closest.
    if (++windows > MAX_WINDOWS) return [];
    const windowStart = starts[from]!;
    const window = file.slice(windowStart, starts[to - 1]! + lines[to - 1]!.length);
    for (const r of approximate(window, want, max))
      out.push({ ...r, start: r.start + windowStart, end: r.end + windowStart });
  }
  // The same region found from two windows counts once.
  const unique = new Map(out.map((r) => [`${r.start}:${r.end}`, r]));
  return [...unique.values()];
}

function bits(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
}

/** Sellers' approximate substring search: the best region ending at each local minimum. */
function approximate(text: string, p: string, max: number): Region[] {
  const m = p.length;
  let prev = Array.from({ length: m + 1 }, (_, i) => i);
  let prevStart = new Array<number>(m + 1).fill(0);
  const ends: Region[] = [];
  for (let j = 1; j <= text.length; j++) {
    const cur = [0];
    const curStart = [j];
    for (let i = 1; i <= m; i++) {
      const diag = prev[i - 1]! + (p[i - 1] === text[j - 1] ? 0 : 1);
      const up = prev[i]! + 1;
      const left = cur[i - 1]! + 1;
      if (diag <= up && diag <= left) {
        cur.push(diag);
        curStart.push(prevStart[i - 1]!);
      } else if (up <= left) {
        cur.push(up);
        curStart.push(prevStart[i]!);
      } else {
        cur.push(left);
        curStart.push(curStart[i - 1]!);
      }
    }
    if (cur[m]! <= max) ends.push({ start: curStart[m]!, end: j, distance: cur[m]! });
    prev = cur;
    prevStart = curStart;
  }
  // Each start keeps its best end; the measure is then the typo-aware one (a swap is one edit).
  const best = new Map<number, Region>();
  for (const r of ends) {
    const have = best.get(r.start);
    if (!have || r.distance < have.distance) best.set(r.start, r);
  }
  return [...best.values()]
    .map((r) => ({ ...r, distance: osaDistance(p, text.slice(r.start, r.end)) }))
    .filter((r) => r.distance <= max);
}
