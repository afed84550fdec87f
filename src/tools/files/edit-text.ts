// Small text measures for the edit strategies: how alike two texts are.

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

/** Edit distance where swapping two neighbouring characters is one edit (getUserNaem, getUserName). */
export function osaDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** A block's lines; a final "\n" ends the last line rather than starting an empty one. */
export function blockLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Whether a match [start, end) of old_string in `file` keeps what old_string says of its edges:
 * text that ends with a line break ends a line there, and text that starts with one starts a line.
 * A loose match that ignores whitespace must not read "text\n" as "text" followed by ".".
 */
export function edgesHold(file: string, start: number, end: number, oldText: string): boolean {
  const endsLine = /\n[ \t]*$/.test(oldText);
  const startsLine = /^[ \t]*\n/.test(oldText);
  if (endsLine && !/^[ \t\r]*(?:\n|$)/.test(file.slice(end, end + 200))) return false;
  if (startsLine && !/(?:^|\n)[ \t]*$/.test(file.slice(Math.max(0, start - 200), start))) return false;
  return true;
}

/** The tokens of `text` (words and single other characters) and where each one starts and ends. */
export function tokensOf(text: string): { tok: string[]; start: number[]; end: number[] } {
  const out = { tok: [] as string[], start: [] as number[], end: [] as number[] };
  for (const m of text.matchAll(/[\w$]+|\S/g)) {
    out.tok.push(m[0]);
    out.start.push(m.index);
    out.end.push(m.index + m[0].length);
  }
  return out;
}
