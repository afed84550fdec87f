import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";

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

const { loadMarkdown, renderMarkdown, renderMarkdownCached, streamTuning } =
  await import("../../src/render/markdown.js");

const DEFAULT_CUT = streamTuning.cutAfterChars;
beforeAll(async () => {
  expect(await loadMarkdown()).toBe(true);
});
afterEach(() => {
  streamTuning.cutAfterChars = DEFAULT_CUT;
});

/** A small deterministic PRNG (mulberry32), so a failing chunking can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Streams `text` in chunks of 1..maxChunk characters; returns every frame, the finished one last. */
function stream(text: string, width: number, key: string, seed: number, maxChunk: number): string[][] {
  const next = random(seed);
  const frames: string[][] = [];
  for (let end = 0; end < text.length;) {
    end = Math.min(text.length, end + 1 + Math.floor(next() * maxChunk));
    frames.push(renderMarkdownCached(text.slice(0, end), width, key, true));
  }
  frames.push(renderMarkdownCached(text, width, key, false));
  return frames;
}

// Markdown written by others: the READMEs of packages we install.
const modules = path.resolve(import.meta.dirname, "../../node_modules");
const READMES = [
  "commander/Readme.md",
  "diff/README.md",
  "fast-glob/README.md",
  "highlight.js/README.md",
  "@modelcontextprotocol/sdk/README.md",
  "chalk/readme.md",
  "cli-table3/README.md",
  "marked/README.md",
];

describe("a streamed answer, once finished, renders exactly as the same text rendered at once", () => {
  for (const [i, file] of READMES.entries()) {
    test(file, () => {
      const text = fs.readFileSync(path.join(modules, file), "utf8");
      const width = i % 2 === 0 ? 100 : 57;
      // Cut the open block at every chance, so that most of each block is rendered in pieces.
      streamTuning.cutAfterChars = 48;
      const frames = stream(text, width, `readme-${i}`, 1000 + i, 300);
      expect(frames.at(-1)).toEqual(renderMarkdownCached(text, width, `once-${i}`));
      // With the default tuning and other chunk sizes too.
      streamTuning.cutAfterChars = DEFAULT_CUT;
      expect(stream(text, width, `readme-default-${i}`, 2000 + i, 120).at(-1)).toEqual(frames.at(-1));
    });
  }
});

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
