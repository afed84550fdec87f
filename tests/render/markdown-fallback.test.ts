import { expect, test } from "vitest";
import { loadMarkdown, markdownReady, renderMarkdown, renderMarkdownCached } from "../../src/render/markdown.js";

// Each test file gets a fresh module registry, so the engine is not loaded yet here.
test("before loadMarkdown, markdown is shown as plain wrapped, sanitized text", async () => {
  expect(markdownReady()).toBe(false);
  expect(renderMarkdown("# Title\n\n**bold** \x1b[2J words here", 12)).toEqual([
    "# Title",
    "",
    "**bold**",
    "␛[2J words",
    "here",
  ]);
  expect(renderMarkdownCached("# Title\n\n**bold**", 12)).toEqual(["# Title", "", "**bold**"]);

  await loadMarkdown();
  expect(markdownReady()).toBe(true);
  // The cache does not keep plain renderings from before the load.
  expect(renderMarkdownCached("# Title\n\n**bold**", 12).map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""))).toEqual([
    "Title",
    "",
    "bold",
  ]);
});
