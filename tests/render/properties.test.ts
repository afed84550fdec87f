import { beforeAll, describe, expect, test } from "vitest";
import fc from "fast-check";
import stringWidth from "string-width";
import stripAnsi from "strip-ansi";
import { diffStats, makeUnifiedDiff, renderDiff } from "../../src/render/diff.js";
import { loadMarkdown, renderMarkdown, renderMarkdownCached } from "../../src/render/markdown.js";
import { sanitize } from "../../src/render/sanitize.js";
import { truncateLine, wrapLine } from "../../src/render/wrap.js";

beforeAll(async () => {
  expect(await loadMarkdown()).toBe(true);
});

// Fixed seed: a failure reproduces; fast-check prints the counterexample either way.
const SEED = 20261122;

const unusual = fc.constantFrom(
  "漢字",
  "한국어",
  "ｆｕｌｌ",
  "😀",
  "👨‍👩‍👧‍👦",
  "🏳️‍🌈",
  "✅",
  "⚠️",
  "🦀",
  "e\u0301",
  "\u0300\u0301",
  "\u200b",
  "\ufe0f",
  "\u202e",
  "\x1b[31m",
  "\x1b[0m",
  "\x1b[38;5;200m",
  "\x1b]8;;javascript:x\x07",
  "\x1b]52;c;aGk=\x07",
  "\x1b[2J",
  "\x9b",
  "\x85",
  "\x00",
  "\x07",
  "\t",
  "\r",
  "\r\n",
  "\n",
  "\n\n",
  "# ",
  "## ",
  "**",
  "*",
  "_",
  "`",
  "```",
  "\n```ts\n",
  "\n```\n",
  "~~~",
  "| a | b |\n|---|---|\n| c | d |\n",
  "|",
  "- ",
  "1. ",
  "  - ",
  "> ",
  "[x](y)",
  "<b>",
  "&amp;",
  ":smile:",
  "---\n",
  " ",
  "    ",
);
const words = fc.string({ unit: fc.constantFrom("a", "b", "c", " ", "x", "y", "\n"), maxLength: 30 });
const randomUnicode = fc.string({ unit: "binary", maxLength: 20 });
// 10,000-character lines; wide ones shorter because measuring non-ASCII text is slow (~5 µs a grapheme).
const longLine = fc.constantFrom("w".repeat(10_000), "word ".repeat(2_000), "漢".repeat(600), "😀 ".repeat(300));

const text = fc
  .array(
    fc.oneof(
      { arbitrary: unusual, weight: 6 },
      { arbitrary: words, weight: 3 },
      { arbitrary: randomUnicode, weight: 2 },
    ),
    {
      maxLength: 40,
    },
  )
  .map((parts) => parts.join(""));
// Long lines get their own, fewer runs: wrapping non-ASCII text costs microseconds a character.
const withLongLine = fc.tuple(text, longLine, text).map((parts) => parts.join(""));
const width = fc.integer({ min: 10, max: 200 });

function tooWide(lines: string[], cols: number): string[] {
  return lines.filter((line) => stringWidth(stripAnsi(line)) > cols);
}

// Anything that would drive the terminal: controls other than \n, and ESC not starting our SGR.
function unsafe(lines: string[]): boolean {
  return lines.some((line) => /[\x00-\x1f\x7f-\x9f]/.test(line.replace(/\x1b\[[0-9;]*m/g, "")));
}

describe("on random and unusual text", () => {
  test("wrapLine, renderMarkdown and renderMarkdownCached handle 10,000-character lines within the width", () => {
    fc.assert(
      fc.property(withLongLine, width, (t, cols) => {
        expect(tooWide(wrapLine(sanitize(t), cols), cols)).toEqual([]);
        expect(tooWide(renderMarkdown(t, cols), cols)).toEqual([]);
        expect(tooWide(renderMarkdownCached(t, cols), cols)).toEqual([]);
      }),
      { numRuns: 8, seed: SEED },
    );
  });

  test("wrapLine never throws and never exceeds the width", () => {
    fc.assert(
      fc.property(text, width, (t, cols) => {
        const lines = wrapLine(sanitize(t), cols);
        expect(tooWide(lines, cols)).toEqual([]);
      }),
      { numRuns: 100, seed: SEED },
    );
  });

  test("wrapLine keeps every visible character, in order", () => {
    const piece = fc.oneof(words, fc.constantFrom("漢字", "😀", "✅", "e\u0301", "w".repeat(300), " ", "  "));
    const line = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join("").replace(/\n/g, " "));
    fc.assert(
      fc.property(line, width, (l, cols) => {
        // wrap-ansi NFC-normalizes (e + U+0301 becomes é): the same text on screen.
        const visible = (s: string): string => s.normalize("NFC").replace(/\s/g, "");
        expect(visible(wrapLine(l, cols).join(""))).toBe(visible(l));
      }),
      { numRuns: 100, seed: SEED },
    );
  });

  test("truncateLine never exceeds the width", () => {
    fc.assert(
      fc.property(fc.oneof(text, withLongLine), fc.integer({ min: 0, max: 200 }), (t, cols) => {
        const line = sanitize(t).split("\n")[0] ?? "";
        expect(stringWidth(stripAnsi(truncateLine(line, cols)))).toBeLessThanOrEqual(cols);
      }),
      { numRuns: 100, seed: SEED },
    );
  });

  test("renderMarkdown never throws, never exceeds the width and never lets a control through", () => {
    fc.assert(
      fc.property(text, width, (t, cols) => {
        const lines = renderMarkdown(t, cols);
        expect(tooWide(lines, cols)).toEqual([]);
        expect(unsafe(lines)).toBe(false);
      }),
      { numRuns: 60, seed: SEED },
    );
  });

  test("renderMarkdownCached never throws, never exceeds the width and never lets a control through", () => {
    fc.assert(
      fc.property(text, width, (t, cols) => {
        const lines = renderMarkdownCached(t, cols);
        expect(tooWide(lines, cols)).toEqual([]);
        expect(unsafe(lines)).toBe(false);
      }),
      { numRuns: 60, seed: SEED },
    );
  });

  test("renderDiff never throws, never exceeds the width and counts what it diffed", () => {
    fc.assert(
      fc.property(text, text, width, (before, after, cols) => {
        const unified = makeUnifiedDiff("file.txt", before, after);
        const lines = renderDiff(unified, cols);
        expect(tooWide(lines, cols)).toEqual([]);
        expect(unsafe(lines)).toBe(false);
        const stats = diffStats(unified);
        expect(stats.added === 0 && stats.removed === 0).toBe(before === after);
      }),
      { numRuns: 30, seed: SEED },
    );
  });
});
