import { describe, expect, test } from "vitest";
import { keepOnlySgr, sanitize } from "../../src/render/sanitize.js";

const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe("sanitize", () => {
  test("plain text comes back unchanged", () => {
    expect(sanitize("hello\nworld — 漢字 😀")).toBe("hello\nworld — 漢字 😀");
  });

  test("a CSI cursor movement shows as visible text", () => {
    const out = sanitize("a\x1b[2J\x1b[10;5Hb");
    expect(out).toBe("a␛[2J␛[10;5Hb");
    expect(out).not.toMatch(RAW_CONTROL);
  });

  test("an OSC 52 clipboard write shows as visible text", () => {
    expect(sanitize("x\x1b]52;c;cm0gLXJmIC8=\x07y")).toBe("x␛]52;c;cm0gLXJmIC8=␇y");
  });

  test("an OSC 0 window title change shows as visible text", () => {
    expect(sanitize("\x1b]0;pwned\x07")).toBe("␛]0;pwned␇");
    expect(sanitize("\x1b]2;title\x1b\\")).toBe("␛]2;title␛\\");
  });

  test("an OSC 8 hyperlink with a javascript: scheme shows as visible text", () => {
    const out = sanitize("\x1b]8;;javascript:alert(1)\x1b\\click\x1b]8;;\x1b\\");
    expect(out).toBe("␛]8;;javascript:alert(1)␛\\click␛]8;;␛\\");
    expect(out).not.toContain("\x1b");
  });

  test("the one-byte C1 CSI 0x9b and other C1 controls show as \\x escapes", () => {
    const out = sanitize("a\x9b31mred\x85b");
    expect(out).toBe("a\\x9b31mred\\x85b");
    expect(out).not.toContain("\x9b");
  });

  test("a DCS sequence, a bare ESC, NUL, BEL, backspace and DEL are all visible", () => {
    expect(sanitize("\x1bP1$r\x1b\\")).toBe("␛P1$r␛\\");
    expect(sanitize("a\x1b")).toBe("a␛");
    expect(sanitize("\x00\x07\x08\x7f")).toBe("␀␇␈␡");
  });

  test("\\r\\n becomes \\n and a lone \\r is dropped", () => {
    expect(sanitize("one\r\ntwo\r\n")).toBe("one\ntwo\n");
    expect(sanitize("10%\r50%\r100%")).toBe("10%50%100%");
  });

  test("tabs expand to the next multiple of 4 columns, counted per line", () => {
    expect(sanitize("\tx")).toBe("    x");
    expect(sanitize("ab\tc\td")).toBe("ab  c   d");
    expect(sanitize("abcd\te\nx\ty")).toBe("abcd    e\nx   y");
    // A wide character takes two columns before the tab stop.
    expect(sanitize("漢\tz")).toBe("漢  z");
  });
});

describe("keepOnlySgr", () => {
  test("keeps SGR styling and makes every other control visible", () => {
    expect(keepOnlySgr("\x1b[1mbold\x1b[22m\x1b[2J\x07\n")).toBe("\x1b[1mbold\x1b[22m␛[2J␇\n");
    expect(keepOnlySgr("\x1b]8;;http://x\x1b\\")).toBe("␛]8;;http://x␛\\");
  });
});
