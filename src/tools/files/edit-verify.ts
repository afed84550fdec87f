// What an edit writes, checked against what the model meant, whichever strategy found the place
// (issue 37). A strategy decides where new_string goes and may normalise what the model sent
// (escapes, line numbers, quotes, a typo in a name, lines it misremembered); it says so in a
// `Meant`. The text written must then be new_string token for token, in the lines it lands in:
// a character left over from the file, a half-merged line or a token the model did not write
// fails, and lines the model did not change keep the file's own bytes.
import type { Splice } from "./file-text.js";
import { alignLines } from "./edit-indent.js";
import { blockLines, tokensOf } from "./edit-text.js";

/** What one splice stands for: old_string and new_string as the strategy read them. */
export interface Meant {
  old: string;
  new: string;
  /** A rewrite both sides are compared under (typographic quotes as ASCII). */
  fold?: (s: string) => string;
}

const toks = (s: string) => tokensOf(s).tok;

/** The reason the splice does not write what was meant, or undefined when it does. */
export function verifySplice(text: string, splice: Splice, meant: Meant): string | undefined {
  const fold = meant.fold ?? ((s: string) => s);
  const from = text.lastIndexOf("\n", splice.start - 1) + 1;
  const nl = text.indexOf("\n", splice.end);
  const to = nl === -1 ? text.length : nl;
  const before = text.slice(from, to);
  const after = text.slice(from, splice.start) + splice.text + text.slice(splice.end, to);
  return (
    sameChange(toks(fold(before)), toks(fold(after)), toks(fold(meant.old)), toks(fold(meant.new))) ??
    keptLines(before, after, meant)
  );
}

/**
 * Whether before -> after is old -> new's change: both with their common ends cut, the file's lines
 * are X + old's middle + Y before and X + new's middle + Y after.
 */
function sameChange(b: string[], a: string[], o: string[], n: string[]): string | undefined {
  let head = 0;
  while (head < o.length && head < n.length && o[head] === n[head]) head++;
  let tail = 0;
  while (tail < o.length - head && tail < n.length - head && o[o.length - 1 - tail] === n[n.length - 1 - tail]) tail++;
  const ox = o.slice(head, o.length - tail);
  const nx = n.slice(head, n.length - tail);
  const wrong = `it would write ${quote(a, b)} where new_string says ${quote(nx.length ? n : o, o)}`;
  if (b.length - ox.length !== a.length - nx.length) return wrong;
  let p = 0;
  while (p < b.length && p < a.length && b[p] === a[p]) p++;
  let s = 0;
  while (s < b.length - p && s < a.length - p && b[b.length - 1 - s] === a[a.length - 1 - s]) s++;
  const eq = (x: string[], at: number, y: string[]) => y.every((t, k) => x[at + k] === t);
  for (let x = Math.max(0, b.length - s - ox.length); x <= Math.min(p, b.length - ox.length); x++) {
    if (eq(b, x, ox) && eq(a, x, nx)) return undefined;
  }
  return wrong;
}

/** The first tokens where `a` differs from `b`, as a short quote. */
function quote(a: string[], b: string[]): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 3);
  const shown = a.slice(from, from + 8).join(" ");
  return `"${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown}"`;
}

/**
 * A line new_string has as old_string has it (the model left it alone) is written as the file has
 * it, indentation and all: a line written anew may only be one new_string changes or adds.
 */
function keptLines(before: string, after: string, meant: Meant): string | undefined {
  const o = blockLines(meant.old);
  const n = blockLines(meant.new);
  const pairs = alignLines(o, n);
  if (pairs.length === 0) return undefined;
  const keptAt = new Set(pairs.map(([, j]) => j));
  const kept = new Set(pairs.map(([, j]) => toks(n[j]!).join(" ")));
  const written = new Map<string, number>();
  for (const [j, l] of n.entries()) {
    const t = toks(l).join(" ");
    if (!keptAt.has(j)) written.set(t, (written.get(t) ?? 0) + 1);
  }
  const fileLines = new Set(before.split("\n"));
  for (const line of after.split("\n")) {
    const t = toks(line).join(" ");
    if (t === "" || !kept.has(t) || fileLines.has(line)) continue;
    const left = written.get(t) ?? 0;
    if (left > 0) written.set(t, left - 1);
    else
      return `it would rewrite "${line.trim()}", a line new_string leaves as it is, instead of keeping the file's bytes`;
  }
  return undefined;
}
