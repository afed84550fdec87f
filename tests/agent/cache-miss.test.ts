import { describe, expect, it } from "vitest";
import { cacheMissNotice } from "../../src/agent/cache-miss.js";

// Issue 43 §5: a re-read that should have been a cache hit is told once, with the likely cause.
describe("cacheMissNotice", () => {
  const previous = { tokens: 6000, subAgentBetween: false };

  it("says nothing when the cache held the shared prefix, or nothing is known", () => {
    expect(cacheMissNotice(previous, 5900, 6400, { provider: "openai" })).toBeUndefined();
    expect(cacheMissNotice(undefined, 0, 6400, { provider: "openai" })).toBeUndefined();
    expect(cacheMissNotice(previous, undefined, 6400, { provider: "openai" })).toBeUndefined();
    // A short prompt re-read costs little: not worth a word.
    expect(cacheMissNotice({ tokens: 800, subAgentBetween: false }, 0, 900, { provider: "openai" })).toBeUndefined();
  });

  it("a sub-agent on llama.cpp's only slot: start it with --parallel 2", () => {
    const text = cacheMissNotice({ tokens: 6000, subAgentBetween: true }, 0, 6400, { provider: "openai", slots: 1 });
    expect(text).toMatch(
      /^The server re-read 6,400 of 6,400 prompt tokens that it should have had cached \(it kept 0\)/,
    );
    expect(text).toContain("agent0's sub-agent took the server's only slot");
    expect(text).toContain("--parallel 2");
  });

  it("Ollama: a reload or another client's request", () => {
    expect(cacheMissNotice(previous, 12, 6400, { provider: "ollama" })).toContain("the model was reloaded");
  });

  it("pinned slots still evicted: another client, or the cache's size", () => {
    expect(cacheMissNotice(previous, 0, 6400, { provider: "openai", slots: 2 })).toContain(
      "another client's request took this conversation's slot",
    );
  });
});
