// Small text measures for edit-match.ts: indentation shifts and how alike two texts are.

/** The file's block is indented `add` more, or `remove` less, than the model's. */
export type Shift = { add: string } | { remove: string };

const indentOf = (l: string) => /^[ \t]*/.exec(l)![0];

/**
 * The one indentation shift that turns the model's lines into the file's, line for line
 * (blank lines aside); undefined when there is none. `firstOnly`: judge by the first non-blank
 * line alone (for blocks whose other lines differ anyway).
 */
export function indentShift(fileLines: string[], modelLines: string[], firstOnly = false): Shift | undefined {
  let shift: Shift | undefined;
  let key: string | undefined;
  const n = Math.min(fileLines.length, modelLines.length);
  for (let i = 0; i < n; i++) {
    const f = fileLines[i]!;
    const m = modelLines[i]!;
    if (f.trim() === "" || m.trim() === "") continue;
    const fi = indentOf(f);
    const mi = indentOf(m);
    let here: Shift;
    if (fi.length >= mi.length && fi.endsWith(mi)) here = { add: fi.slice(0, fi.length - mi.length) };
    else if (mi.endsWith(fi)) here = { remove: mi.slice(0, mi.length - fi.length) };
    else return undefined;
    const k = JSON.stringify(here);
    if (key !== undefined && k !== key) return undefined;
    key = k;
    shift = here;
    if (firstOnly) break;
  }
  // No shift at all is not a shift: the lines already stand where they should.
  return shift && ("add" in shift ? shift.add : shift.remove) !== "" ? shift : undefined;
}

/** new_string moved by the same shift as its old_string, so it lands at the file's indentation. */
export function reindent(text: string, shift: Shift): string {
  return text
    .split("\n")
    .map((l) => {
      if (l.trim() === "") return l;
      if ("add" in shift) return shift.add + l;
      if (l.startsWith(shift.remove)) return l.slice(shift.remove.length);
      return l.slice(Math.min(shift.remove.length, indentOf(l).length));
    })
    .join("\n");
}

const MAX_COMPARED = 4000;

/** 1 - edit distance / longer length: 1 for equal texts, 0 for nothing alike. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  if (longer > MAX_COMPARED) return lineOverlap(a, b);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return 1 - prev[b.length]! / longer;
}

/** For long texts: the share of lines the two have in common. */
function lineOverlap(a: string, b: string): number {
  const la = a.split("\n");
  const lb = new Set(b.split("\n"));
  return la.filter((l) => lb.has(l)).length / Math.max(la.length, lb.size);
}
