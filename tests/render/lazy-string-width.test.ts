// The bundle builds string-width's segmenter and emoji regular expression on first use
// (scripts/lazy-string-width.mjs). The widths must stay string-width's own: the transformed module
// is loaded beside the original and both measure strings from string-width's own test suite's
// kinds (ASCII, CJK, emoji and ZWJ sequences, keycaps, combining marks, Hangul jamo, ANSI).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import stringWidth from "string-width";
// @ts-expect-error -- a build script in plain JavaScript, without types
import { lazyStringWidthSource } from "../../scripts/lazy-string-width.mjs";

const require = createRequire(import.meta.url);
const original = require.resolve("string-width");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-lazy-sw-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SAMPLES = [
  "hello world",
  "",
  "古池や蛙飛び込む水の音",
  "안녕하세요",
  "\u1100\u1161\u11A8",
  "😀 grinning",
  "👨‍👩‍👧‍👦 family",
  "🏳️‍🌈 flag",
  "❤️ heart (RGI: a text-default symbol with VS16)",
  "✌️ peace",
  "1\u20E3 keycap",
  "e\u0301 combining",
  "\u001B[31mred\u001B[39m text",
  "ｈａｌｆ and ｆｕｌｌ",
  "tab\there",
];

describe("string-width built lazily in the bundle", () => {
  it("finds both constructions in the installed string-width and defers them", () => {
    const source = fs.readFileSync(original, "utf8");
    const lazy = lazyStringWidthSource(source) as string;
    expect(lazy).not.toContain("const segmenter = new Intl.Segmenter();");
    expect(lazy).not.toContain("const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;");
    expect(lazy).toContain("segmenterBuilt ??= new Intl.Segmenter()");
  });

  it("measures every sample as string-width does", async () => {
    const src = fs.readFileSync(original, "utf8");
    // The copy imports what the original imports, from the original's folder.
    const lazy = (lazyStringWidthSource(src) as string).replace(
      /from '([^'.][^']*)'/g,
      (_m, spec: string) => `from '${pathToFileURL(require.resolve(spec, { paths: [path.dirname(original)] })).href}'`,
    );
    const file = path.join(dir, "lazy-string-width.mjs");
    fs.writeFileSync(file, lazy);
    const { default: lazyWidth } = (await import(pathToFileURL(file).href)) as { default: typeof stringWidth };
    expect(SAMPLES.length).toBeGreaterThan(10);
    for (const s of SAMPLES) expect(lazyWidth(s), JSON.stringify(s)).toBe(stringWidth(s));
  });

  it("an older copy without a segmenter is left as it is", () => {
    const old = "module.exports = (s) => s.length;";
    expect(lazyStringWidthSource(old)).toBe(old);
  });
});
