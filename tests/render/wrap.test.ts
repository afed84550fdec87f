import { describe, expect, test } from "vitest";
import stripAnsi from "strip-ansi";
import { theme } from "../../src/render/theme.js";
import { displayWidth, padLine, truncateLine, wrapLine, wrapText } from "../../src/render/wrap.js";

describe("displayWidth", () => {
  test("counts columns, not code units: SGR 0, CJK and emoji 2, combining marks 0", () => {
    expect(displayWidth("abc")).toBe(3);
    expect(displayWidth(theme.err("abc"))).toBe(3);
    expect(displayWidth("漢字")).toBe(4);
    expect(displayWidth("😀")).toBe(2);
    expect(displayWidth("👨‍👩‍👧")).toBe(2);
    expect(displayWidth("e\u0301")).toBe(1);
  });
});

describe("wrapLine", () => {
  test("a short line stays one line", () => {
    expect(wrapLine("hello", 10)).toEqual(["hello"]);
  });

  test("wraps at word boundaries", () => {
    expect(wrapLine("the quick brown fox", 10)).toEqual(["the quick", "brown fox"]);
  });

  test("cuts a 10,000-character word so that no line is wider than the width", () => {
    const lines = wrapLine("x".repeat(10_000), 80);
    expect(lines).toHaveLength(125);
    expect(lines.every((l) => displayWidth(l) === 80)).toBe(true);
  });

  test("never splits a wide character across lines", () => {
    expect(wrapLine("漢字漢字漢", 5)).toEqual(["漢字", "漢字", "漢"]);
  });

  test("carries a style across the break: every piece is opened and closed", () => {
    const lines = wrapLine(theme.err("red red red red"), 8);
    expect(lines.map(stripAnsi)).toEqual(["red red", "red red"]);
    for (const line of lines) {
      expect(line.startsWith("\x1b[31m")).toBe(true);
      expect(line.endsWith("\x1b[39m")).toBe(true);
    }
  });

  test("repeats the line's indentation on continuation lines", () => {
    expect(wrapLine("    return alpha + beta + gamma", 20)).toEqual(["    return alpha +", "    beta + gamma"]);
  });

  test("a 2-column character cannot fit in 1 column and becomes …", () => {
    expect(wrapLine("漢", 1)).toEqual(["…"]);
  });
});

describe("wrapText", () => {
  test("wraps each line and keeps empty lines", () => {
    expect(wrapText("aaa bbb\n\nccc", 4)).toEqual(["aaa", "bbb", "", "ccc"]);
  });
});

describe("truncateLine and padLine", () => {
  test("truncateLine cuts with … and keeps lines that fit", () => {
    expect(truncateLine("abcdefghij", 5)).toBe("abcd…");
    expect(truncateLine("abc", 5)).toBe("abc");
    expect(truncateLine("漢字漢字", 5)).toBe("漢字…");
  });

  test("truncateLine closes styles it cuts through", () => {
    const cut = truncateLine(theme.ok("abcdefghij"), 5);
    expect(stripAnsi(cut)).toBe("abcd…");
    expect(cut).toContain("\x1b[39m");
  });

  test("padLine makes a line exactly the width", () => {
    expect(padLine("ab", 5)).toBe("ab   ");
    expect(padLine("abcdefgh", 5)).toBe("abcd…");
    expect(displayWidth(padLine("漢字", 7))).toBe(7);
  });
});
