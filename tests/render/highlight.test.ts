import { expect, test } from "vitest";
import stripAnsi from "strip-ansi";
import { highlightTokens, supportsLanguage } from "../../src/render/highlight.js";
import { codeTheme } from "../../src/render/theme.js";

test("code keeps its text exactly: HTML-special characters are not escaped", () => {
  const code = 'const s = "<a & b>"; // x < y && y > z\nif (a) { return `${b}`; }';
  expect(stripAnsi(highlightTokens(code, "ts", codeTheme))).toBe(code);
  expect(stripAnsi(highlightTokens("<div class='x'>&amp; <b>hi</b></div>", "html", codeTheme))).toBe(
    "<div class='x'>&amp; <b>hi</b></div>",
  );
});

test("tokens take the theme's colours; text outside tokens takes the default, one style per run", () => {
  const out = highlightTokens("const x = 1;", "ts", codeTheme);
  expect(out).toBe(
    codeTheme.keyword("const") + codeTheme.default(" x = ") + codeTheme.number("1") + codeTheme.default(";"),
  );
});

test("a token is named by its first word, as cli-highlight reads it from the class name", () => {
  // highlight.js marks a C preprocessor line "meta" with "meta-keyword" and "meta-string" inside.
  const bracket = (s: string) => `[${s}]`;
  const angle = (s: string) => `<${s}>`;
  const theme = { default: (s: string) => s, meta: bracket, "meta-keyword": angle };
  expect(highlightTokens('#include "a.h"', "c", theme)).toBe('[#[include] ["a.h"]]');
  // A token without a style of its own is left as it is, inside its parent's style.
  expect(highlightTokens('#include "a.h"', "c", { default: (s: string) => s })).toBe('#include "a.h"');
});

test("languages are looked up by name and alias", () => {
  expect(supportsLanguage("typescript")).toBe(true);
  expect(supportsLanguage("ts")).toBe(true);
  expect(supportsLanguage("nosuchlang")).toBe(false);
});
