// The text a loose match writes, built from the file's own lines (issue 24, edits that never break
// a file):
// - a line that is the same in old_string and new_string is written back exactly as the file has
//   it (a loose match means the model's copy of it was off: its copy is not what it meant);
// - a changed or added line takes the file's indentation style (tabs stay tabs, spaces stay spaces,
//   the file's step), at the depth the model gave it relative to the nearest untouched line.

/** How a file indents: one step of indentation. */
export interface IndentStyle {
  unit: string;
}

const indentOf = (l: string) => /^[ \t]*/.exec(l)![0];
const TAB = 4;
const STYLE_SAMPLE = 2000;

/** The file's step: a tab, or the commonest rise in spaces from one line to the next. */
export function indentStyle(lines: readonly string[]): IndentStyle {
  let tabs = 0;
  let spaces = 0;
  const rises = new Map<number, number>();
  let last = 0;
  let seen = 0;
  for (const l of lines) {
    if (l.trim() === "") continue;
    // A sample settles a file's style; a huge file is not read to its end for it.
    if (++seen > STYLE_SAMPLE) break;
    const ind = indentOf(l);
    if (ind.startsWith("\t")) tabs++;
    else if (ind.length > 0) spaces++;
    const w = ind.startsWith("\t") ? 0 : ind.length;
    if (w > last && w - last <= 8) rises.set(w - last, (rises.get(w - last) ?? 0) + 1);
    last = w;
  }
  if (tabs > spaces) return { unit: "\t" };
  const step = [...rises.entries()].filter(([n]) => n >= 2).sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
  return { unit: " ".repeat(step ?? (rises.has(1) ? 2 : 4)) };
}

/** An indentation's width in columns of `unit` steps (a tab counts as one step of a tab file). */
function columns(indent: string, unit: string): number {
  const step = unit === "\t" ? TAB : unit.length;
  let w = 0;
  for (const ch of indent) w += ch === "\t" ? step : 1;
  return w / step;
}

function indentLevels(levels: number, unit: string): string {
  return unit.repeat(Math.max(0, Math.round(levels)));
}

/** The model's own step: tabs, or the commonest rise between its lines. */
function modelUnit(lines: readonly string[]): string {
  const ws = lines.filter((l) => l.trim() !== "").map(indentOf);
  const tabbed = ws.some((w) => w.includes("\t"));
  if (tabbed && !ws.some((w) => / {2}/.test(w))) return "\t";
  // Tabs and spaces mixed: a tab stands for four spaces.
  if (tabbed) return " ".repeat(TAB);
  return indentStyle(lines).unit;
}

/** Longest common subsequence of equal lines (trailing spaces aside): pairs [old index, new index]. */
export function alignLines(a: readonly string[], b: readonly string[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  if (n * m > 250_000) return [];
  const eq = (i: number, j: number) => a[i]!.trimEnd() === b[j]!.trimEnd() && a[i]!.trim() !== "";
  const dp: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--)
      dp[i]![j] = eq(i, j) ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  }
  const out: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (eq(i, j)) out.push([i++, j++]);
    else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/**
 * new_string's lines for the file lines `here`, which a loose strategy matched to old_string's
 * lines `old` (the same count, line for line). A line the model did not change is the file's line,
 * byte for byte. A changed or added line sits at the file's indentation where it goes plus the
 * model's relative indentation there, never the file's and the model's absolute indentation
 * added up; at the same depth it takes the file's bytes there (tabs, spaces or both, mixed).
 */
export function rebuild(
  here: readonly string[],
  old: readonly string[],
  neu: readonly string[],
  style: IndentStyle,
): string[] {
  const pairs = alignLines(old, neu);
  const byNew = new Map(pairs.map(([i, j]) => [j, i]));
  // Where the model's indentation already is the file's, changed lines stand as written.
  const shifted = old.some((o, i) => o.trim() !== "" && here[i] !== undefined && indentOf(o) !== indentOf(here[i]!));
  const unit = modelUnit([...old, ...neu]);
  const refOf = (j: number) => reference(old, pairs, j);
  const fileFrame = pairs.length === 0 && wroteFileIndent(here, old, neu, refOf);
  return neu.map((line, j) => {
    const i = byNew.get(j);
    if (i !== undefined && here[i] !== undefined) return here[i]!;
    if (line.trim() === "") return "";
    if (!shifted && styleFits(indentOf(line), style)) return line;
    const r = refOf(j);
    const fileIndent = indentOf(here[r] ?? "");
    // The model's frame: old_string's indentation, or the file's when new_string was written in it.
    const levels = fileFrame
      ? columns(indentOf(line), style.unit) - columns(fileIndent, style.unit)
      : columns(indentOf(line), unit) - columns(indentOf(old[r] ?? ""), unit);
    return atDepth(here, fileIndent, Math.round(levels), style) + line.trimStart();
  });
}

/**
 * The line of old_string a changed line of new_string is measured from: the one it replaces (the
 * same place after the last unchanged line), else the nearest unchanged line above it.
 */
function reference(old: readonly string[], pairs: readonly [number, number][], j: number): number {
  const prev = pairs.filter(([, pj]) => pj < j).at(-1);
  const next = pairs.find(([, pj]) => pj > j);
  const at = (prev ? prev[0] : -1) + (j - (prev ? prev[1] : -1));
  const limit = next ? next[0] : old.length;
  const nonBlank = (i: number) => i >= 0 && i < old.length && old[i]!.trim() !== "";
  if (at < limit && nonBlank(at)) return at;
  if (prev) return prev[0];
  for (let i = Math.min(at, old.length - 1); i >= 0; i--) if (nonBlank(i)) return i;
  return Math.max(
    0,
    old.findIndex((l) => l.trim() !== ""),
  );
}

/**
 * Whether new_string was written at the file's indentation though old_string was not: its first
 * changed line has the file's indentation where it goes, not old_string's.
 */
function wroteFileIndent(
  here: readonly string[],
  old: readonly string[],
  neu: readonly string[],
  refOf: (j: number) => number,
): boolean {
  const j = neu.findIndex((l) => l.trim() !== "");
  if (j < 0) return false;
  const r = refOf(j);
  const fileIndent = indentOf(here[r] ?? "");
  return indentOf(neu[j]!) === fileIndent && fileIndent !== indentOf(old[r] ?? "");
}

/** `levels` steps from `base`: the bytes of a file line at that depth, else base's plus steps. */
function atDepth(here: readonly string[], base: string, levels: number, style: IndentStyle): string {
  if (levels === 0) return base;
  const want = columns(base, style.unit) + levels;
  const same = here.find((l) => l.trim() !== "" && columns(indentOf(l), style.unit) === want);
  if (same !== undefined) return indentOf(same);
  return levels > 0 ? base + style.unit.repeat(levels) : indentLevels(want, style.unit);
}

/** Tabs in a tab file, spaces in a space file (a line at the margin fits both). */
export function styleFits(indent: string, style: IndentStyle): boolean {
  if (indent === "") return true;
  return style.unit === "\t" ? !indent.startsWith(" ") : !indent.includes("\t");
}

/** new_string in the file's style: only lines indented in the other style are converted. */
export function restyle(text: string, style: IndentStyle): string {
  const lines = text.split("\n");
  if (lines.every((l) => styleFits(indentOf(l), style))) return text;
  const unit = modelUnit(lines);
  return lines
    .map((l) =>
      styleFits(indentOf(l), style) ? l : indentLevels(columns(indentOf(l), unit), style.unit) + l.trimStart(),
    )
    .join("\n");
}
