// string-width builds an Intl.Segmenter (~13 ms: ICU's break data) and the \p{RGI_Emoji} regular
// expression (~19 ms) when its module is evaluated, though printable ASCII, most of what a
// terminal agent draws, takes its fast path and needs neither. Resuming a session paid both
// before its last screen could paint. This bundler plugin builds each on first use instead; the
// widths are string-width's own (tests/render/lazy-string-width.test.ts compares them).

/** The two constructions, as string-width 8 writes them, and their lazy stand-ins. */
const LAZY = [
  [
    "const segmenter = new Intl.Segmenter();",
    "let segmenterBuilt; const segmenter = { segment: (s) => (segmenterBuilt ??= new Intl.Segmenter()).segment(s) };",
  ],
  [
    "const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;",
    'let rgiEmojiBuilt; const rgiEmojiRegex = { test: (s) => (rgiEmojiBuilt ??= new RegExp("^\\\\p{RGI_Emoji}$", "v")).test(s) };',
  ],
];

/**
 * string-width's source with both built on first use. A version that writes them differently
 * fails the build here (rather than silently paying the cost again), as does one that uses them
 * for more than `.segment` and `.test`.
 */
export function lazyStringWidthSource(source) {
  // An older string-width (another package's own copy) builds neither: nothing to defer.
  if (!source.includes("Intl.Segmenter") && !source.includes("RGI_Emoji")) return source;
  let out = source;
  for (const [eager, lazy] of LAZY) {
    if (!out.includes(eager))
      throw new Error(`string-width changed: "${eager}" not found; update scripts/lazy-string-width.mjs`);
    out = out.replace(eager, lazy);
  }
  const uses = out.match(/\b(?:segmenter|rgiEmojiRegex)\.\w+/g) ?? [];
  const unknown = uses.filter((u) => u !== "segmenter.segment" && u !== "rgiEmojiRegex.test");
  if (unknown.length > 0)
    throw new Error(`string-width changed: ${unknown.join(", ")}; update scripts/lazy-string-width.mjs`);
  return out;
}

export const lazyStringWidth = {
  name: "lazy-string-width",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      const fs = await import("node:fs/promises");
      return { contents: lazyStringWidthSource(await fs.readFile(args.path, "utf8")), loader: "js" };
    });
  },
};
