// Small text measures for edit-match.ts: indentation shifts and how alike two texts are.

/** Turns an indentation of the model's into the file's. */
export type Shift = (indent: string) => string;

const indentOf = (l: string) => /^[ \t]*/.exec(l)![0];

/**
 * How the model's indentation maps onto the file's, line for line (blank lines aside): a prefix
 * added or removed (the block sits deeper or shallower), or spaces scaled (2-space for 4-space).
 * Undefined when the lines already stand where they should or no single rule fits.
 * `firstOnly`: judge by the first non-blank line alone (for blocks whose other lines differ).
 */
export function indentShift(fileLines: string[], modelLines: string[], firstOnly = false): Shift | undefined {
  const pairs: [string, string][] = [];
  for (let i = 0; i < Math.min(fileLines.length, modelLines.length); i++) {
    if (fileLines[i]!.trim() === "" || modelLines[i]!.trim() === "") continue;
    pairs.push([indentOf(modelLines[i]!), indentOf(fileLines[i]!)]);
    if (firstOnly) break;
  }
  if (pairs.length === 0 || pairs.every(([m, f]) => m === f)) return undefined;
  const [m0, f0] = pairs[0]!;
  if (f0.endsWith(m0)) {
    const add = f0.slice(0, f0.length - m0.length);
    if (pairs.every(([m, f]) => f === add + m)) return (i) => add + i;
  }
  if (m0.endsWith(f0)) {
    const cut = m0.slice(0, m0.length - f0.length);
    if (pairs.every(([m, f]) => m === cut + f)) return (i) => (i.startsWith(cut) ? i.slice(cut.length) : "");
  }
  return scaled(pairs);
}

/** Spaces only, file width = a × model width + b for every pair (one line fits any b: none). */
function scaled(pairs: [string, string][]): Shift | undefined {
  if (!pairs.every(([m, f]) => /^ *$/.test(m) && /^ *$/.test(f))) return undefined;
  const distinct = [...new Map(pairs.map(([m, f]) => [m.length, f.length])).entries()];
  if (distinct.length < 2) return undefined;
  const [[m1, f1], [m2, f2]] = distinct as [[number, number], [number, number]];
  const a = (f2 - f1) / (m2 - m1);
  const b = f1 - a * m1;
  if (a <= 0 || !pairs.every(([m, f]) => a * m.length + b === f.length)) return undefined;
  return (i) => (/^ *$/.test(i) ? " ".repeat(Math.max(0, Math.round(a * i.length + b))) : i);
}

/** new_string moved by the same rule as its old_string, so it lands at the file's indentation. */
export function reindent(text: string, shift: Shift): string {
  return text
    .split("\n")
    .map((l) => (l.trim() === "" ? l : shift(indentOf(l)) + l.slice(indentOf(l).length)))
    .join("\n");
}

const MAX_COMPARED = 4000;

/** 1 - edit distance / longer length: 1 for equal texts, 0 for nothing alike. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  if (longer > MAX_COMPARED) return lineOverlap(a, b);
  return 1 - editDistance(a, b) / longer;
}

/** Levenshtein distance: insertions, deletions and substitutions of one character each. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** For long texts: the share of lines the two have in common. */
function lineOverlap(a: string, b: string): number {
  const la = a.split("\n");
  const lb = new Set(b.split("\n"));
  return la.filter((l) => lb.has(l)).length / Math.max(la.length, lb.size);
}
