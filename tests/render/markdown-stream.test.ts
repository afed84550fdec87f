import { beforeAll, expect, test, vi } from "vitest";

// Counts how often the engine renders a block, to see that settled blocks are not rendered again.
const calls = vi.hoisted(() => ({ n: 0 }));
vi.mock("../../src/render/markdown-engine.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/render/markdown-engine.js")>();
  return {
    ...real,
    renderStyled: (text: string, width: number) => {
      calls.n++;
      return real.renderStyled(text, width);
    },
  };
});

const { loadMarkdown, renderMarkdown, renderMarkdownCached } = await import("../../src/render/markdown.js");

beforeAll(async () => {
  expect(await loadMarkdown()).toBe(true);
});

test("a streamed answer longer than any shared cache renders each settled block once", () => {
  const blocks = Array.from({ length: 2500 }, (_, i) =>
    i % 5 === 0 ? `## Part ${i}` : `Paragraph ${i} with **bold**.`,
  );
  const text = blocks.join("\n\n");
  const chunks = 40;
  calls.n = 0;
  let last: string[] = [];
  for (let i = 1; i <= chunks; i++)
    last = renderMarkdownCached(text.slice(0, Math.ceil((text.length * i) / chunks)), 80, 7, true);
  // Each chunk renders at most its own new blocks plus the open one; one full render would be 2,500.
  expect(calls.n).toBeLessThan(blocks.length + 3 * chunks);
  expect(last.length).toBeGreaterThan(blocks.length);
  calls.n = 0;
  expect(renderMarkdownCached(text, 80, 7)).toEqual(last);
  // Only the last two blocks: the last one began on a line that is not complete yet.
  expect(calls.n).toBeLessThanOrEqual(2);
});

test("a streamed line that becomes a list item joins the list above it", () => {
  const full = "1. one\n\n2. two\n\nafter";
  for (let end = 0; end <= full.length; end++) {
    expect(renderMarkdownCached(full.slice(0, end), 40, "list")).toEqual(renderMarkdown(full.slice(0, end), 40));
  }
});

test("any split of a document into appended chunks renders like the whole", () => {
  const doc = [
    "# Title",
    "",
    "Text with `code`.",
    "",
    "```ts",
    "const a = 1;",
    "",
    "const b = 2;",
    "```",
    "",
    "- a",
    "",
    "  more a",
    "- b",
    "",
    "| x | y |",
    "|---|---|",
    "| 1 | 2 |",
    "",
    "Last.",
  ].join("\n");
  for (const step of [1, 3, 7, 16]) {
    for (let end = 0; end <= doc.length; end += step) {
      expect(renderMarkdownCached(doc.slice(0, end), 50, `s${step}`)).toEqual(renderMarkdown(doc.slice(0, end), 50));
    }
  }
  // The same key with a text that is not an extension starts over.
  expect(renderMarkdownCached("other", 50, "s1")).toEqual(renderMarkdown("other", 50));
});
