// Issue 26: block quotes get a left bar, code blocks a language label; both hold when the text
// wraps and when a block streams in pieces (the pieces add up to the one-shot render).
import { beforeAll, describe, expect, it } from "vitest";
import stripAnsi from "strip-ansi";
import { loadMarkdown, renderMarkdown } from "../../src/render/markdown.js";
import { displayWidth } from "../../src/render/wrap.js";

beforeAll(async () => {
  await loadMarkdown();
});

const plain = (text: string, width = 80) => renderMarkdown(text, width).map(stripAnsi);

describe("block quotes", () => {
  it("every line has a bar on its left, wrapped lines too", () => {
    const quote = "> The parser drops the last line when the file has no final newline, which is common.";
    const lines = plain(quote, 40);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.startsWith("│ ")).toBe(true);
    expect(renderMarkdown(quote, 40).every((l) => displayWidth(l) <= 40)).toBe(true);
  });

  it("a nested quote has two bars", () => {
    expect(plain("> outer\n>\n> > inner")).toContain("│ │ inner");
  });
});

describe("code blocks", () => {
  it("are labelled with their language, once", () => {
    const lines = plain("```ts\nconst a = 1;\nconst b = 2;\n```");
    expect(lines[0]?.trim()).toBe("ts");
    expect(lines.filter((l) => l.trim() === "ts")).toHaveLength(1);
    expect(lines[1]).toContain("const a = 1;");
  });

  it("without a language, no label", () => {
    expect(plain("```\nplain text\n```")[0]?.trim()).toBe("plain text");
  });
});
