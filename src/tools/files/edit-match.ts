// Where an edit's old_string is in a file, when the model copied it imperfectly. Strategies are
// tried from strict to loose until one finds the text; each must find exactly one place (or
// every place, for replace_all): several equally good places are refused and listed, never
// guessed between. A wrong edit is worse than a refused one.
//
// Learned from opencode's edit replacers, aider's editblock coder and Codex's apply_patch fuzz;
// written for this code base.
import type { Splice } from "./file-text.js";
import { blockLines, similarity } from "./edit-text.js";
import { alignLines, indentStyle, rebuild, restyle, type IndentStyle } from "./edit-indent.js";
import { smallTypo, whitespaceBlind } from "./edit-loose.js";
import { TRANSFORMS } from "./edit-transforms.js";
import { verifySplice, type Meant } from "./edit-verify.js";
import { ELISION, isPlaceholder } from "./edit-placeholders.js";
import { closest } from "./edit-closest.js";

export type Plan = { ok: true; splices: Splice[]; strategy: string } | { ok: false; error: string; strategy?: string };

interface Found {
  splices: Splice[];
  /** 1-based first line of each place, for the refusal that lists them. */
  lines: number[];
  /** What the splices stand for (one for all, or one each), when the strategy read it otherwise. */
  meant?: Meant | Meant[];
}

/** A strategy over a file's lines and the model's old/new text: every place it matches. */
type Strategy = (file: Lines, oldText: string, newText: string) => Found[];

interface Lines {
  text: string;
  lines: string[];
  starts: number[];
  style: IndentStyle;
}

export const STRATEGIES = [
  "exact",
  "line-trimmed",
  "indentation-flexible",
  "whitespace-normalised",
  "escape-normalised",
  "line-numbers-stripped",
  "diff-prefixes-stripped",
  "smart-quotes-normalised",
  "whitespace-blind",
  "block-anchor",
  "elided-middle",
  "small-typo",
] as const;

function splitLines(text: string): Lines {
  const lines = text.split("\n");
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  let style: IndentStyle | undefined;
  // Judged only when a strategy writes indentation: the exact path on a big file never pays for it.
  return {
    text,
    lines,
    starts,
    get style() {
      return (style ??= indentStyle(lines));
    },
  };
}

/** The splice replacing lines [i, i + k): the span ends before the last line's "\n". */
function lineSplice(file: Lines, i: number, k: number, text: string): Splice {
  const last = i + k - 1;
  return { start: file.starts[i]!, end: file.starts[last]! + file.lines[last]!.length, text: text.replace(/\n$/, "") };
}

/**
 * Whether new_string indents with a character old_string (the file's own text, copied exactly)
 * does not: only then is the file's style worth judging.
 */
function needsRestyle(oldText: string, newText: string): boolean {
  const used = (t: string) => new Set((t.match(/(?:^|\n)([ \t]+)/g) ?? []).join("").replace(/\n/g, ""));
  const added = used(newText);
  if (added.size === 0) return false;
  const had = used(oldText);
  return had.size === 0 || [...added].some((c) => !had.has(c));
}

const exact: Strategy = (file, oldText, newText) => {
  const out: Found[] = [];
  // Copied exactly, written as the model wrote it: only lines indented in the file's other style change.
  const text = needsRestyle(oldText, newText) ? restyle(newText, file.style) : newText;
  for (let at = file.text.indexOf(oldText); at !== -1; at = file.text.indexOf(oldText, at + oldText.length)) {
    out.push({ splices: [{ start: at, end: at + oldText.length, text }], lines: [lineAt(file, at)] });
  }
  return out;
};

/** Windows of the file whose lines equal the block's under `norm`. */
function windows(file: Lines, block: string[], norm: (l: string) => string): number[] {
  const want = block.map(norm);
  const out: number[] = [];
  for (let i = 0; i + want.length <= file.lines.length; i++) {
    let j = 0;
    while (j < want.length && norm(file.lines[i + j]!) === want[j]) j++;
    if (j === want.length) out.push(i);
  }
  return out;
}

/** A window the block matched: new_string rebuilt over the file's own lines there (edit-indent.ts). */
function rebuilt(file: Lines, i: number, block: string[], newText: string): Found {
  const here = file.lines.slice(i, i + block.length);
  const text = rebuild(here, block, newText.split("\n"), file.style).join("\n");
  return { splices: [lineSplice(file, i, block.length, text)], lines: [i + 1] };
}

function byLines(norm: (l: string) => string): Strategy {
  return (file, oldText, newText) => {
    const block = blockLines(oldText);
    if (block.every((l) => l.trim() === "")) return [];
    return windows(file, block, norm).map((i) => rebuilt(file, i, block, newText.replace(/\n$/, "")));
  };
}

const trimmedEnd = byLines((l) => l.trimEnd());
const indentFlexible = byLines((l) => l.trim());
const whitespace = byLines((l) => l.trim().replace(/\s+/g, " "));
const BASE: [string, Strategy][] = [
  ["exact", exact],
  ["line-trimmed", trimmedEnd],
  ["indentation-flexible", indentFlexible],
  ["whitespace-normalised", whitespace],
];

/**
 * First and last lines exactly (trimmed), as many lines as old_string, and every middle line like
 * its counterpart: a block the model half remembered. The same count keeps an anchor on a closing
 * `}` from stopping at a nested block's `}`.
 */
const BLOCK_ANCHOR_MIN = 0.8;
const ANCHOR_LINE_MIN = 0.8;
const blockAnchor: Strategy = (file, oldText, newText) => {
  const block = blockLines(oldText);
  const k = block.length;
  if (k < 3) return [];
  const first = block[0]!.trim();
  const last = block[k - 1]!.trim();
  if (first === "" || last === "") return [];
  const out: Found[] = [];
  for (let i = 0; i + k <= file.lines.length; i++) {
    if (file.lines[i]!.trim() !== first || file.lines[i + k - 1]!.trim() !== last) continue;
    const scores = block.slice(1, -1).map((l, j) => lineLikeness(file.lines[i + 1 + j]!, l));
    const mean = scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
    if (scores.some((s) => s < ANCHOR_LINE_MIN) || mean < BLOCK_ANCHOR_MIN) continue;
    const found = rebuilt(file, i, block, newText.replace(/\n$/, ""));
    out.push({ ...found, meant: anchoredMeant(file.lines.slice(i, i + k), block, newText) });
  }
  return out;
};

/** Block-anchor's reading: the lines the model kept are the file's, misremembered or not. */
function anchoredMeant(here: string[], block: string[], newText: string): Meant {
  const neu = blockLines(newText);
  const kept = new Map(alignLines(block, neu).map(([i, j]) => [j, i]));
  return { old: here.join("\n"), new: neu.map((l, j) => (kept.has(j) ? here[kept.get(j)!]! : l)).join("\n") };
}

function lineLikeness(a: string, b: string): number {
  const [x, y] = [a.trim(), b.trim()];
  return x === "" && y === "" ? 1 : similarity(x, y);
}

/** `A / ... / B` in old_string and `A' / ... / B'` in new_string: A and B change, the middle stays. */
const elidedMiddle: Strategy = (file, oldText, newText) => {
  const parts = (s: string) => segments(blockLines(s));
  const olds = parts(oldText);
  const news = parts(newText);
  if (!olds || !news || olds.length !== news.length || olds.length < 2) return [];
  const out: Found[] = [];
  const seek = (seg: string[], from: number) => windows(file, seg, (l) => l.trimEnd()).filter((i) => i >= from);
  for (const i of seek(olds[0]!, 0)) {
    const starts = [i];
    for (let s = 1; s < olds.length; s++) {
      const next = seek(olds[s]!, starts[s - 1]! + olds[s - 1]!.length)[0];
      if (next === undefined) break;
      starts.push(next);
    }
    if (starts.length !== olds.length) continue;
    const splices = olds.flatMap((seg, s) => rebuilt(file, starts[s]!, seg, news[s]!.join("\n")).splices);
    const meant = olds.map((seg, s) => ({ old: seg.join("\n"), new: news[s]!.join("\n") }));
    out.push({ splices, lines: [i + 1], meant });
  }
  return out;
};

/** Blocks of lines between elision lines; undefined when there is no elision or a block is empty. */
function segments(lines: string[]): string[][] | undefined {
  const out: string[][] = [[]];
  for (const l of lines) {
    if (ELISION.test(l)) out.push([]);
    else out[out.length - 1]!.push(l);
  }
  return out.length > 1 && out.every((s) => s.length > 0) ? out : undefined;
}

/** Plans replacing old_string by new_string in `text` (line ends "\n"). */
export function planEdit(text: string, oldString: string, newString: string, replaceAll: boolean): Plan {
  const oldText = oldString.replace(/\r\n/g, "\n");
  const newText = newString.replace(/\r\n/g, "\n");
  const placeholder = placeholderRefusal(text, oldText, newText);
  if (placeholder) return { ok: false, error: placeholder };
  const file = splitLines(text);
  const typo: { why?: string } = {};
  let unmeant: string | undefined;
  for (const [strategy, run] of cascade(file, oldText, newText, replaceAll, typo)) {
    // A place where the edit would not write what the model meant is no place for it.
    const found = run().filter((f) => {
      const why = checkFound(text, f, { old: oldText, new: newText });
      if (why) unmeant ??= `a ${strategy} match was found, but ${why}`;
      return !why;
    });
    if (found.length === 0) continue;
    if (found.length > 1 && !replaceAll) {
      const where = found.map((f) => f.lines[0]).join(", ");
      return {
        ok: false,
        strategy,
        error:
          `old_string matches ${found.length} places (lines ${where}${strategy === "exact" ? "" : `, by ${strategy}`}). ` +
          "Add surrounding lines to make it unique, or set replace_all to true.",
      };
    }
    if (strategy === "exact") {
      const cut = cutIdentifier(text, oldText, found);
      if (cut) return { ok: false, strategy, error: cut };
    }
    return { ok: true, splices: found.flatMap((f) => f.splices), strategy };
  }
  const near = unmeant
    ? ` ${unmeant[0]!.toUpperCase()}${unmeant.slice(1)}.`
    : typo.why
      ? ` It is close to the file's text, but ${typo.why}.`
      : "";
  return { ok: false, error: `old_string was not found.${near}${closest(file.lines, oldText)}` };
}

/** A placeholder new_string would write where code was (old_string without elisions of its own). */
function placeholderRefusal(text: string, oldText: string, newText: string): string | undefined {
  if (segments(blockLines(oldText))) return undefined;
  const added = blockLines(newText).find(
    (l) => isPlaceholder(l) && !oldText.includes(l.trim()) && !text.includes(l.trim()),
  );
  if (added === undefined) return undefined;
  return (
    `new_string holds a placeholder, "${added.trim()}", that is neither in old_string nor in the file: ` +
    "it would replace real code with it. Write the text in full in new_string, every line of it."
  );
}

/** The strategies from strict to loose, each run only when the ones before found nothing. */
function cascade(
  file: Lines,
  oldText: string,
  newText: string,
  replaceAll: boolean,
  typo: { why?: string },
): [string, () => Found[]][] {
  const text = file.text;
  const tries: [string, () => Found[]][] = BASE.map(([name, s]) => [name, () => s(file, oldText, newText)]);
  for (const t of TRANSFORMS) {
    tries.push([
      t.name,
      () => {
        const r = t.apply(text, oldText, newText);
        if (!r) return [];
        const f = r.file === text ? file : splitLines(r.file);
        const meant: Meant = { old: r.oldText, new: r.newText, ...(t.fold ? { fold: t.fold } : {}) };
        for (const [, s] of BASE) {
          const found = s(f, r.oldText, r.newText);
          if (found.length > 0) return found.map((x) => ({ ...x, meant }));
        }
        return [];
      },
    ]);
  }
  const at = (o: number) => lineAt(file, o);
  tries.push([
    "whitespace-blind",
    () => whitespaceBlind(text, oldText, newText, file.style, at).map((f) => ({ splices: f.splices, lines: [f.line] })),
  ]);
  tries.push(["block-anchor", () => blockAnchor(file, oldText, newText)]);
  tries.push(["elided-middle", () => elidedMiddle(file, oldText, newText)]);
  tries.push([
    "small-typo",
    () => {
      const r = replaceAll ? undefined : smallTypo(text, oldText, newText, at);
      if (r && !r.ok && r.why) typo.why = r.why;
      return r?.ok ? [{ splices: [r.splice], lines: [r.line], meant: r.meant }] : [];
    },
  ]);
  return tries;
}

/** Why a found place would not get what was meant (edit-verify.ts), or undefined. */
function checkFound(text: string, f: Found, plain: Meant): string | undefined {
  for (const [k, splice] of f.splices.entries()) {
    const meant = Array.isArray(f.meant) ? f.meant[k]! : (f.meant ?? plain);
    const why = verifySplice(text, splice, meant);
    if (why) return why;
  }
  return undefined;
}

/** A multi-line old_string whose end cuts a word in two would leave half a token behind. */
function cutIdentifier(text: string, oldText: string, found: Found[]): string | undefined {
  if (!oldText.includes("\n") || !/\w$/.test(oldText)) return undefined;
  for (const f of found) {
    const end = f.splices[0]!.end;
    if (!/\w/.test(text[end] ?? "")) continue;
    const word = /^\w*/.exec(text.slice(end))![0];
    const tail = /\w+$/.exec(oldText)![0];
    return (
      `old_string ends in the middle of "${tail}${word}" (line ${lineAt(splitLines(text), end)}): ` +
      "it would leave half a word behind. End old_string with whole lines."
    );
  }
  return undefined;
}

function lineAt(file: Lines, offset: number): number {
  let lo = 0;
  let hi = file.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (file.starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
