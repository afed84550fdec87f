/**
 * string-width and wrap-ansi (which imports string-width) are loaded on first use, not at start:
 * string-width's module set-up (an Intl.Segmenter and a `\p{RGI_Emoji}` regex with the `v` flag)
 * costs ~46 ms, and most sessions never meet a character the narrow fast path in wrap.ts cannot
 * measure, nor a line that needs wrapping before the first frame is on screen.
 *
 * In the bundle, esbuild turns the literal `require("…")` calls below into lazily initialised
 * bundled modules, so this works on every Node version we support; run unbundled (tsc output,
 * tests), Node's own require of an ES module does it (Node ≥ 20.19).
 */
import { createRequire } from "node:module";

type StringWidth = typeof import("string-width").default;
type WrapAnsi = typeof import("wrap-ansi").default;

const nodeRequire = createRequire(import.meta.url);
const bundled = typeof require === "function";

// eslint-disable-next-line no-restricted-syntax -- a cache: the module, loaded on first use
let stringWidthFn: StringWidth | undefined;
// eslint-disable-next-line no-restricted-syntax -- a cache: the module, loaded on first use
let wrapAnsiFn: WrapAnsi | undefined;

export function stringWidth(text: string): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
  stringWidthFn ??= ((bundled ? require("string-width") : nodeRequire("string-width")) as { default: StringWidth })
    .default;
  return stringWidthFn(text);
}

export function wrapAnsi(text: string, columns: number, options?: Parameters<WrapAnsi>[2]): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
  wrapAnsiFn ??= ((bundled ? require("wrap-ansi") : nodeRequire("wrap-ansi")) as { default: WrapAnsi }).default;
  return wrapAnsiFn(text, columns, options);
}
