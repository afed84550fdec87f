import { describe, expect, test, vi } from "vitest";

// A streaming block is rendered in pieces cut along the way: a repaint costs about what follows
// the latest cut, and what a later line changes above a cut is set right when the block closes.
// The streamed READMEs of installed packages are in markdown-open-block-readmes.test.ts and
// markdown-open-block-mcp-readme.test.ts.

// Counts the characters the engine renders, to see that a streaming block is not rendered whole
// again on every frame.
const rendered = vi.hoisted(() => ({ chars: 0 }));
vi.mock("../../src/render/markdown-engine.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/render/markdown-engine.js")>();
  return {
    ...real,
    renderStyled: (text: string, width: number) => {
      rendered.chars += text.length;
      return real.renderStyled(text, width);
    },
  };
});

const { renderMarkdown, renderMarkdownCached, streamTuning } = await import("../../src/render/markdown.js");
const { stream, useMarkdownStreaming } = await import("./stream-frames.js");

useMarkdownStreaming();

describe("while a block streams, a repaint renders only what follows its latest cut", () => {
  const cases: Record<string, string> = {
    "a code block": "```ts\n" + Array.from({ length: 1000 }, (_, i) => `const v${i} = f(${i}, "s");`).join("\n"),
    "a paragraph": Array.from({ length: 1000 }, (_, i) => `Line ${i} of one paragraph, with a \`span\`.`).join("\n"),
    "a list": Array.from({ length: 1000 }, (_, i) => `- item ${i} with **bold**`).join("\n"),
    "a loose ordered list": Array.from({ length: 1000 }, (_, i) => `${i + 1}. item ${i}`).join("\n\n"),
    "a quote": Array.from({ length: 1000 }, (_, i) => `> quoted line ${i}`).join("\n"),
  };
  for (const [name, text] of Object.entries(cases)) {
    test(`${name}: about linear in its length, not in the square of it`, () => {
      streamTuning.cutAfterChars = 256;
      rendered.chars = 0;
      const frames = stream(text, 80, `linear-${name}`, 7, 100);
      // Each frame renders at most ~cutAfterChars + a chunk, each piece once, then the whole once
      // on closing: ~8 times the text. The whole open block per frame would be ~frames / 2 times.
      expect(frames.length).toBeGreaterThan(250);
      expect(rendered.chars).toBeLessThan(text.length * 12);
      expect(frames.at(-1)).toEqual(renderMarkdown(text, 80));
    });
  }

  test("pieces of a code block, a paragraph, a tight list and a quote look as in the whole", () => {
    streamTuning.cutAfterChars = 30;
    const docs = [
      "```ts\n" + Array.from({ length: 40 }, (_, i) => `let x${i} = ${i};`).join("\n"),
      Array.from({ length: 40 }, (_, i) => `plain line ${i} and \`code\``).join("\n"),
      Array.from({ length: 40 }, (_, i) => `* item *${i}*`).join("\n"),
      Array.from({ length: 40 }, (_, i) => `> quote ${i}`).join("\n"),
      "Intro line\n" + Array.from({ length: 30 }, (_, i) => `- item ${i}`).join("\n"),
    ];
    for (const [d, doc] of docs.entries()) {
      for (let end = 1; end <= doc.length; end += 7) {
        const prefix = doc.slice(0, end);
        expect(renderMarkdownCached(prefix, 60, `exact-${d}`, true)).toEqual(renderMarkdown(prefix, 60));
      }
    }
  });
});

describe("what a later line changes above a cut is set right when the block closes", () => {
  const cases: Record<string, string> = {
    "a setext underline turns the paragraph into a heading": `${"words ".repeat(8)}\n`.repeat(20) + "===",
    "an emphasis opened lines earlier": "a *start\n" + "middle line\n".repeat(20) + "end* b",
    "an ordered list reaching two-digit numbers": Array.from({ length: 12 }, (_, i) => `${i + 1}. n`).join("\n"),
    "a multi-line comment in code": "```ts\n/*\n" + "comment line\n".repeat(20) + "*/\nconst a = 1;\n```",
    "a table growing row by row":
      "| a | b |\n|---|---|\n" + "| one | two |\n".repeat(20) + "| a much longer cell | x |",
    "a fence that closes, then text": "```js\n" + "x();\n".repeat(20) + "```\n" + "after the fence\n".repeat(10),
  };
  for (const [name, text] of Object.entries(cases)) {
    test(name, () => {
      streamTuning.cutAfterChars = 16;
      for (const seed of [1, 2, 3]) {
        expect(stream(text, 70, `${name}-${seed}`, seed, 12).at(-1)).toEqual(renderMarkdown(text, 70));
      }
    });
  }
});
