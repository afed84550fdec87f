import { describe, expect, test } from "vitest";
import stripAnsi from "strip-ansi";
import { diffStats, makeUnifiedDiff, renderDiff } from "../../src/render/diff.js";
import { displayWidth } from "../../src/render/wrap.js";

const RED = "\x1b[31m";
const GREEN = "\x1b[32m";
const CYAN = "\x1b[36m";

const before = "alpha\nbeta\ngamma\ndelta\n";
const after = "alpha\nBETA\ngamma\ndelta\nepsilon\n";

describe("makeUnifiedDiff and diffStats", () => {
  test("makes jsdiff's unified diff of one file", () => {
    expect(makeUnifiedDiff("src/a.ts", before, after)).toBe(
      [
        "Index: src/a.ts",
        "===================================================================",
        "--- src/a.ts",
        "+++ src/a.ts",
        "@@ -1,4 +1,5 @@",
        " alpha",
        "-beta",
        "+BETA",
        " gamma",
        " delta",
        "+epsilon",
        "",
      ].join("\n"),
    );
  });

  test("counts added and removed lines, not the file headers", () => {
    expect(diffStats(makeUnifiedDiff("a", before, after))).toEqual({ added: 2, removed: 1 });
    // A removed line whose text starts with "-- " must not be taken for a header.
    expect(diffStats(makeUnifiedDiff("a", "-- x\nkeep\n", "keep\n"))).toEqual({ added: 0, removed: 1 });
  });
});

describe("renderDiff", () => {
  const lines = renderDiff(makeUnifiedDiff("src/a.ts", before, after), 80);

  // Two gutter columns, old and new numbers, as GitHub's split-free view and `delta` show them.
  test("shows the file, the hunk header, and each line with its old and new numbers", () => {
    expect(lines.map(stripAnsi)).toEqual([
      "src/a.ts",
      "@@ -1,4 +1,5 @@",
      "1 1   alpha",
      "2   - beta",
      "  2 + BETA",
      "3 3   gamma",
      "4 4   delta",
      "  5 + epsilon",
    ]);
  });

  test("a removed line is red and carries its old line number", () => {
    const removed = lines.find((l) => stripAnsi(l).endsWith("beta"));
    expect(removed).toContain(`${RED}beta`);
    expect(stripAnsi(removed ?? "")).toBe("2   - beta");
  });

  test("an added line is green and carries its new line number", () => {
    const added = lines.find((l) => stripAnsi(l).endsWith("epsilon"));
    expect(added).toContain(`${GREEN}epsilon`);
    expect(stripAnsi(added ?? "")).toBe("  5 + epsilon");
  });

  test("the hunk header is cyan and context lines are not red or green", () => {
    expect(lines[1]).toContain(`${CYAN}@@ -1,4 +1,5 @@`);
    const context = lines.find((l) => stripAnsi(l).endsWith("gamma")) ?? "";
    expect(context).not.toContain(RED);
    expect(context).not.toContain(GREEN);
  });

  test("removed old numbers and added new numbers follow their own files", () => {
    const old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
    const next = "a\nb\nc\nd\ne\nf\nX\nY\nh\ni\nj\n";
    expect(renderDiff(makeUnifiedDiff("f", old, next), 80).map(stripAnsi)).toEqual([
      "f",
      "@@ -3,8 +3,9 @@",
      " 3  3   c",
      " 4  4   d",
      " 5  5   e",
      " 6  6   f",
      " 7    - g",
      "    7 + X",
      "    8 + Y",
      " 8  9   h",
      " 9 10   i",
      "10 11   j",
    ]);
  });

  test("a long diff is folded to maxLines with a count of what is hidden", () => {
    const many = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n") + "\n";
    const unified = makeUnifiedDiff("big", "", many);
    const out = renderDiff(unified, 80).map(stripAnsi);
    // file name + hunk header + 100 added lines = 102 rows; 40 shown.
    expect(out).toHaveLength(41);
    expect(out[40]).toBe("… 62 more lines hidden");
    expect(renderDiff(unified, 80, { maxLines: 10 }).map(stripAnsi).at(-1)).toBe("… 92 more lines hidden");
    expect(renderDiff(unified, 80, { maxLines: 500 })).toHaveLength(102);
  });

  test("long lines wrap under their text and never exceed the width", () => {
    const out = renderDiff(makeUnifiedDiff("w", "short\n", "word ".repeat(30) + "\n"), 30);
    expect(out.every((l) => displayWidth(l) <= 30)).toBe(true);
    expect(stripAnsi(out[3] ?? "")).toBe("  1 + word word word word word");
    expect(stripAnsi(out[4] ?? "")).toBe("      word word word word word");
    expect(out[4]).toContain(GREEN);
  });

  test("escape sequences inside file content are shown as text", () => {
    const out = renderDiff(makeUnifiedDiff("e", "a\n", "\x1b]0;title\x07\n"), 80).join("\n");
    expect(stripAnsi(out)).toContain("+ ␛]0;title␇");
    expect(out).not.toContain("\x1b]");
  });

  test("an unchanged file gives no lines; text that is no diff is shown coloured by its first character", () => {
    expect(renderDiff(makeUnifiedDiff("same", "x\n", "x\n"), 80)).toEqual([]);
    const raw = renderDiff("+added\n-removed\nother", 80);
    expect(raw.map(stripAnsi)).toEqual(["+added", "-removed", "other"]);
    expect(raw[0]).toContain(GREEN);
    expect(raw[1]).toContain(RED);
  });
});
