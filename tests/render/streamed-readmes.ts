// Shared by the README open-block tests (markdown-open-block-*readme*.test.ts): markdown written
// by others, the READMEs of packages we install, streamed and compared with the text rendered at once.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { renderMarkdownCached, streamTuning } from "../../src/render/markdown.js";
import { DEFAULT_CUT, stream } from "./stream-frames.js";

export const STREAMED_README = "a streamed answer, once finished, renders exactly as the same text rendered at once";

const modules = path.resolve(import.meta.dirname, "../../node_modules");
/** A README's place in this list sets its width and seeds, so a failure replays the same in either file. */
export const READMES = [
  "commander/Readme.md",
  "diff/README.md",
  "fast-glob/README.md",
  "highlight.js/README.md",
  "@modelcontextprotocol/sdk/README.md",
  "chalk/readme.md",
  "cli-table3/README.md",
  "marked/README.md",
];
/** The slowest to stream by far, so it has a file of its own. */
export const MCP_SDK_README = "@modelcontextprotocol/sdk/README.md";

/** The test of the README at place `i` in READMES. */
export function testStreamedReadme(i: number): void {
  const file = READMES[i]!;
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
