import { beforeAll, describe, expect, test } from "vitest";
import stripAnsi from "strip-ansi";
import { loadMarkdown, markdownReady, renderMarkdown, renderMarkdownCached } from "../../src/render/markdown.js";
import { displayWidth } from "../../src/render/wrap.js";

beforeAll(async () => {
  expect(await loadMarkdown()).toBe(true);
});

const plain = (md: string, width = 80): string[] => renderMarkdown(md, width).map(stripAnsi);

const SAMPLE = [
  "# Plan",
  "",
  "Some **bold**, *italic* and `code` with a [link](https://example.com).",
  "",
  "## Steps",
  "",
  "- first with **strong** words",
  "- second with `inline code`",
  "  - nested *item*",
  "",
  "1. one",
  "2. two",
  "",
  "3. three, after a blank line",
  "",
  "```ts",
  "const answer: number = 42;",
  "",
  "function twice(n: number) { return n * 2; }",
  "```",
  "",
  "| Name | Value |",
  "|------|------:|",
  "| alpha | 1 |",
  "| beta & co | 22 |",
  "",
  "> a quote",
  "",
  "---",
  "",
  "The end.",
].join("\n");

describe("renderMarkdown", () => {
  test("is ready after loadMarkdown", () => {
    expect(markdownReady()).toBe(true);
  });

  test("a heading renders styled and without its #", () => {
    const [line] = renderMarkdown("## Steps to take", 80);
    expect(stripAnsi(line ?? "")).toBe("Steps to take");
    expect(line).toContain("\x1b[1m");
  });

  test("bold and italic render without their markers", () => {
    const out = renderMarkdown("Some **bold** and *italic* text", 80);
    expect(out.map(stripAnsi)).toEqual(["Some bold and italic text"]);
    expect(out[0]).toContain("\x1b[1mbold\x1b[22m");
  });

  test("a list item with inline bold and code renders without ** or backticks", () => {
    expect(plain("- item with **bold** inside\n- and `code` too")).toEqual([
      "  • item with bold inside",
      "  • and code too",
    ]);
  });

  test("an ordered list split by a blank line keeps its numbering", () => {
    expect(plain("1. one\n2. two\n\n3. three")).toEqual(["  1. one", "  2. two", "  3. three"]);
  });

  test("a code block keeps its lines, indented and syntax-highlighted, under its language", () => {
    const out = renderMarkdown("```ts\nconst answer: number = 42;\n```", 80);
    expect(out.map(stripAnsi)).toEqual(["    ts", "    const answer: number = 42;"]);
    expect(out[1]).toMatch(/\x1b\[38;5;\d+mconst/);
  });

  test("a code block in an unknown language is shown uncoloured by grammar, not guessed", () => {
    expect(plain("```nosuchlang\nlet x = 1\n```")).toEqual(["    nosuchlang", "    let x = 1"]);
  });

  test("a table shows its cells inside box borders", () => {
    expect(plain("| Name | Value |\n|---|---:|\n| alpha | 1 |\n| beta & co | 22 |")).toEqual([
      "┌───────────┬───────┐",
      "│ Name      │ Value │",
      "├───────────┼───────┤",
      "│ alpha     │     1 │",
      "├───────────┼───────┤",
      "│ beta & co │    22 │",
      "└───────────┴───────┘",
    ]);
  });

  test("a table wider than the width is fitted into it by wrapping its cells", () => {
    const row = "| " + ["first column", "second column text", "third"].join(" | ") + " |";
    const out = plain(`${row}\n|---|---|---|\n| a | b | c |`, 30);
    expect(out.every((l) => displayWidth(l) <= 30)).toBe(true);
    expect(out.join("\n")).toContain("first");
    expect(out[0]?.startsWith("┌")).toBe(true);
  });

  test("a table too wide to fit readably is cut at the edge", () => {
    const head = "| " + Array.from({ length: 12 }, (_, i) => `column${i}`).join(" | ") + " |";
    const out = plain(`${head}\n|${"---|".repeat(12)}`, 20);
    expect(out.every((l) => displayWidth(l) <= 20)).toBe(true);
    expect(out[1]).toBe("│ column0 │ column1…");
  });

  test("a link shows its text and its address, never an OSC 8 hyperlink", () => {
    const out = renderMarkdown("see [the docs](javascript:alert(1)) now", 80);
    expect(out.map(stripAnsi)).toEqual(["see the docs (javascript:alert(1)) now"]);
    expect(out.join("")).not.toContain("\x1b]");
  });

  test("escape sequences in the markdown are shown as text, not passed to the terminal", () => {
    const out = renderMarkdown("**hi** \x1b]52;c;ZXZpbA==\x07 \x1b[2J \x9b6n", 80);
    expect(out.map(stripAnsi)).toEqual(["hi ␛]52;c;ZXZpbA==␇ ␛[2J \\x9b6n"]);
    expect(out.join("").replace(/\x1b\[[0-9;]*m/g, "")).not.toMatch(/[\x1b\x07\x9b]/);
  });

  test("every line is wrapped to the width, list items under their text", () => {
    const out = plain("- " + "word ".repeat(12).trim(), 24);
    // Indented by 2 (4 would read as a code block), wrapped under the text, not the bullet.
    expect(out).toEqual(["  • word word word word", "    word word word word", "    word word word word"]);
  });

  test("a thematic break spans the width", () => {
    expect(plain("---", 12)).toEqual(["─".repeat(12)]);
  });
});

describe("renderMarkdownCached", () => {
  test("gives exactly the whole-document result for a sample document", () => {
    for (const width of [30, 60, 100]) {
      expect(renderMarkdownCached(SAMPLE, width)).toEqual(renderMarkdown(SAMPLE, width));
    }
  });

  test("gives the same result again from its cache, and follows a width change", () => {
    const first = renderMarkdownCached(SAMPLE, 50);
    expect(renderMarkdownCached(SAMPLE, 50)).toEqual(first);
    expect(renderMarkdownCached(SAMPLE, 70)).toEqual(renderMarkdown(SAMPLE, 70));
  });

  test("follows a streaming answer: each prefix renders like the whole prefix", () => {
    for (let end = 0; end <= SAMPLE.length; end += 37) {
      const prefix = SAMPLE.slice(0, end);
      expect(renderMarkdownCached(prefix, 60)).toEqual(renderMarkdown(prefix, 60));
    }
  });
});
