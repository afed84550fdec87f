import { describe, expect, test } from "vitest";
import { splitBlocks } from "../../src/render/blocks.js";
import { Lru } from "../../src/render/lru.js";

describe("splitBlocks", () => {
  test("blank lines separate blocks; runs of blank lines count once", () => {
    expect(splitBlocks("# H\n\npara one\nstill one\n\n\n\npara two\n")).toEqual([
      "# H",
      "para one\nstill one",
      "para two",
    ]);
  });

  test("blank lines inside a fence do not split it, even before the fence closes", () => {
    expect(splitBlocks("```js\na\n\nb\n```\n\nafter")).toEqual(["```js\na\n\nb\n```", "after"]);
    expect(splitBlocks("~~~~\nx\n\n~~~\n\ny")).toEqual(["~~~~\nx\n\n~~~\n\ny"]);
    expect(splitBlocks("text\n```\nopen\n\nstill streaming")).toEqual(["text\n```\nopen\n\nstill streaming"]);
  });

  test("a loose list stays one block, and ends at a paragraph", () => {
    expect(splitBlocks("1. one\n\n2. two\n\n   more of two\n\nafter")).toEqual([
      "1. one\n\n2. two\n\n   more of two",
      "after",
    ]);
  });

  test("inline code with three backticks does not open a fence", () => {
    expect(splitBlocks("```a``` b\n\nc")).toEqual(["```a``` b", "c"]);
  });
});

describe("Lru", () => {
  test("drops the least recently used entry when full", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe(1);
    expect(lru.get("c")).toBe(3);
    expect(lru.size).toBe(2);
  });
});
