// Rewrites of what the model sent before the edit strategies try again: escapes written out, line
// numbers copied from read_file, diff prefixes, typographic quotes (edit-match.ts runs them).
import { blockLines } from "./edit-text.js";

/** Rewrites of what the model sent (and of the file, for quotes) before the base strategies again. */
export interface Transform {
  name: string;
  apply(file: string, oldText: string, newText: string): { file: string; oldText: string; newText: string } | undefined;
  /** What the file and the model's text are compared under once it matched (edit-verify.ts). */
  fold?: (s: string) => string;
}

const unescape = (s: string) => s.replace(/\\([nt"'\\])/g, (_, c: string) => ({ n: "\n", t: "\t" })[c] ?? c);
const NUMBERED = /^\s*\d+(?:\t|: |\s*\| |\s*→)/;
const QUOTES: Record<string, string> = {
  "‘": "'",
  "’": "'",
  "‚": "'",
  "‛": "'",
  "“": '"',
  "”": '"',
  "„": '"',
  "‟": '"',
  // Codex's apply_patch normalises these too: typographic dashes and the no-break space.
  "‐": "-",
  "‑": "-",
  "‒": "-",
  "–": "-",
  "—": "-",
  "―": "-",
  "\u00a0": " ",
  "\u202f": " ",
};
const straight = (s: string) => s.replace(/[‘’‚‛“”„‟‐‑‒–—―\u00a0\u202f]/g, (c) => QUOTES[c]!);

export const TRANSFORMS: Transform[] = [
  {
    name: "escape-normalised",
    apply: (file, o, n) =>
      /\\[nt"']/.test(o) && unescape(o) !== o ? { file, oldText: unescape(o), newText: unescape(n) } : undefined,
  },
  {
    name: "line-numbers-stripped",
    apply: (file, o, n) => {
      const strip = (s: string) =>
        blockLines(s)
          .map((l) => l.replace(NUMBERED, ""))
          .join("\n");
      const numbered = (s: string) =>
        blockLines(s)
          .filter((l) => l.trim() !== "")
          .every((l) => NUMBERED.test(l));
      if (!numbered(o)) return undefined;
      return { file, oldText: strip(o), newText: numbered(n) && n.trim() !== "" ? strip(n) : n };
    },
  },
  {
    name: "diff-prefixes-stripped",
    apply: (file, o, n) => {
      const prefixed = (s: string) => {
        const ls = blockLines(s).filter((l) => l !== "");
        return ls.length > 0 && ls.every((l) => /^[-+ ]/.test(l)) && ls.some((l) => /^[-+]/.test(l));
      };
      if (!prefixed(o)) return undefined;
      const keep = (s: string, drop: string) =>
        blockLines(s)
          .filter((l) => !l.startsWith(drop))
          .map((l) => l.slice(1))
          .join("\n");
      return { file, oldText: keep(o, "+"), newText: prefixed(n) ? keep(n, "-") : n };
    },
  },
  {
    name: "smart-quotes-normalised",
    fold: straight,
    // One character for one: offsets in the normalised file are offsets in the real one.
    apply: (file, o, n) =>
      straight(file) !== file || straight(o) !== o
        ? { file: straight(file), oldText: straight(o), newText: n }
        : undefined,
  },
];

/**
 * new_string without diff markers, when it reads as a diff of old_string: every line starts with
 * "+", "-" or a space, at least one adds, and the removed and context lines are old_string's.
 * A new_string of code that starts with "-" (a list, a negative number) is not a diff of it.
 */
export function unmarkedDiff(oldText: string, newText: string): string | undefined {
  const lines = blockLines(newText);
  const marked = lines.filter((l) => l !== "");
  if (marked.length < 2 || !marked.every((l) => /^[-+ ]/.test(l)) || !marked.some((l) => l.startsWith("+")))
    return undefined;
  if (marked.some((l) => /^(?:\+\+|--)/.test(l)) || blockLines(oldText).some((l) => /^[-+]/.test(l))) return undefined;
  const had = new Set(blockLines(oldText).map((l) => l.trim()));
  if (!marked.filter((l) => !l.startsWith("+")).every((l) => had.has(l.slice(1).trim()))) return undefined;
  const kept = lines.filter((l) => !l.startsWith("-")).map((l) => l.slice(1));
  return kept.join("\n") + (newText.endsWith("\n") ? "\n" : "");
}
