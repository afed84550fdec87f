// Shared by the open-block tests (markdown-open-block*.test.ts): streams markdown through the
// cached renderer in seeded random chunks, with the engine loaded first and the cut tuning reset
// after each test.
import { afterEach, beforeAll, expect } from "vitest";
import { loadMarkdown, renderMarkdownCached, streamTuning } from "../../src/render/markdown.js";
import { seededRandom } from "../fakes/seeded-random.js";

export const DEFAULT_CUT = streamTuning.cutAfterChars;

/** Loads the engine before the file's tests and puts the default cut back after each. */
export function useMarkdownStreaming(): void {
  beforeAll(async () => {
    expect(await loadMarkdown()).toBe(true);
  });
  afterEach(() => {
    streamTuning.cutAfterChars = DEFAULT_CUT;
  });
}

/** Streams `text` in chunks of 1..maxChunk characters; returns every frame, the finished one last. */
export function stream(text: string, width: number, key: string, seed: number, maxChunk: number): string[][] {
  const next = seededRandom(seed);
  const frames: string[][] = [];
  for (let end = 0; end < text.length;) {
    end = Math.min(text.length, end + 1 + Math.floor(next() * maxChunk));
    frames.push(renderMarkdownCached(text.slice(0, end), width, key, true));
  }
  frames.push(renderMarkdownCached(text, width, key, false));
  return frames;
}
