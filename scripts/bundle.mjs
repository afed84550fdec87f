// Bundles the app into dist/bundle: the TUI's module graph (the UI thread's entries and the
// worker's, with shared chunks), a headless one-shot's own graph (hl-*), and yaml on its own.
// Loading a few bundled files is much faster than resolving the hundreds of small modules of
// node_modules, and start-up time is what a user of a terminal tool feels first.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { lazyStringWidth } from "./lazy-string-width.mjs";
import { buildOneShot } from "./one-shot-bundle.mjs";

/**
 * Code blocks are highlighted with the ~35 languages of hljs-common.cjs rather than all ~190 of
 * highlight.js: a fraction of the size and memory; other languages render as plain text.
 */
const commonHighlightLanguages = {
  name: "highlight.js-common",
  setup(b) {
    const common = path.join(path.dirname(fileURLToPath(import.meta.url)), "hljs-common.cjs");
    // render/highlight.ts imports the same entry by its file (highlight.js's own types are unusable).
    b.onResolve({ filter: /^highlight\.js(?:\/lib\/index\.js)?$/ }, () => ({ path: common }));
  },
};

/**
 * Two of marked-terminal's imports, swapped for lighter ones on the UI heap (each file says why):
 * what the heap holds, V8's memory reducer walks again once the app is idle (bench: idle).
 */
const lighterMarkdownImports = {
  name: "lighter-markdown-imports",
  setup(b) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const fromMarkedTerminal = (args) => /[\\/]marked-terminal[\\/]/.test(args.importer);
    b.onResolve({ filter: /^cli-highlight$/ }, (args) =>
      fromMarkedTerminal(args) ? { path: path.join(here, "cli-highlight-stub.mjs") } : undefined,
    );
    b.onResolve({ filter: /^node-emoji$/ }, (args) =>
      fromMarkedTerminal(args) ? { path: path.join(here, "node-emoji-lazy.mjs") } : undefined,
    );
  },
};

// Chunk names carry hashes: start clean so old chunks do not pile up.
fs.rmSync("dist/bundle", { recursive: true, force: true });

/**
 * The built-in tools' JSON schemas, computed from the same source as the bundle (see
 * src/tools/builtin-schemas.ts): the bundle gets them as a constant instead of converting zod
 * schemas at every start.
 */
async function builtinToolSchemas() {
  const out = "dist/.builtin-tool-schemas.mjs";
  await build({
    entryPoints: ["src/tools/builtin-schemas.ts"],
    bundle: true,
    format: "esm",
    platform: "node",
    packages: "external",
    outfile: out,
    logLevel: "warning",
  });
  try {
    const { builtinToolSchemas } = await import(pathToFileURL(path.resolve(out)).href);
    return builtinToolSchemas();
  } finally {
    fs.rmSync(out, { force: true });
  }
}

// yaml gets a file of its own, required on first use (src/context/lazy-yaml.ts): in a chunk, its
// ~260 KB would be parsed at every start, though most runs never read any frontmatter.
await build({
  entryPoints: [createRequire(import.meta.url).resolve("yaml")],
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  outfile: "dist/bundle/yaml.cjs",
  legalComments: "none",
  logLevel: "warning",
});

/** What both module graphs share: ES modules for node, with `require` for the lazy requires. */
const common = {
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir: "dist/bundle",
  // blessed loads widgets and terminfo relative to its own folder; ripgrep ships a binary, and
  // sharp a native addon with libvips (@img/sharp-*), loaded on the first attached image.
  external: ["blessed", "@vscode/ripgrep", "sharp"],
  banner: {
    js: "import { createRequire as __agent0CreateRequire } from 'node:module'; const require = __agent0CreateRequire(import.meta.url);",
  },
  // A string, used once: an object here would make esbuild add an initialiser to every module.
  define: { AGENT0_BUILTIN_TOOL_SCHEMAS: JSON.stringify(JSON.stringify(await builtinToolSchemas())) },
  plugins: [commonHighlightLanguages, lazyStringWidth],
  legalComments: "none",
  logLevel: "warning",
};

// A headless one-shot is one CommonJS file, run from V8's compiled code (scripts/one-shot-bundle.mjs
// says why), with the small loader that does so (src/start/code-cache.ts) in a file of its own.
await buildOneShot(common);

// What every launch loads first (options: the command line without commander) and a one-shot's
// loader: each one CommonJS file, as bin/agent0.js is, so a one-shot starts no ES module loader.
// Split among main's chunks, options came in four files; it imports only constants, so main's
// own copy shares no state with it.
await build({
  ...common,
  entryPoints: { options: "src/start/options.ts", "code-cache": "src/start/code-cache.ts" },
  format: "cjs",
  splitting: false,
  outExtension: { ".js": ".cjs" },
  banner: { js: 'const __agent0_url = require("node:url").pathToFileURL(__filename).href;' },
  define: { ...common.define, "import.meta.url": "__agent0_url" },
});

await build({
  ...common,
  // bin/agent0.js reads the command line with options (no commander), then either runs a
  // headless line it read whole through one-shot.cjs (above), starts the agent of one it could not
  // through agent-start, or paints the TUI's first frame through boot (below), before main loads.
  entryPoints: {
    main: "src/start/main.ts",
    worker: "src/agent/worker.ts",
    "file-index-worker": "src/search/index-worker.ts",
    "agent-start": "src/cli/agent-start.ts",
  },
  // Chunks sit beside the entries: agent.ts finds the worker as new URL("./worker.js", import.meta.url).
  chunkNames: "[name]-[hash]",
  plugins: [commonHighlightLanguages, lighterMarkdownImports, lazyStringWidth],
});

// The TUI's first frame, in one file: split among main's chunks its code came in ~20 files and
// loaded in ~30 ms, in one file ~17 ms (20 interleaved launches each). The modules it shares
// with main keep their process-wide state in one value (src/ui/runtime/process-state.ts), which
// bin hands from boot's copy to main's (src/start/boot.ts handOver, src/start/main.ts start).
await build({
  ...common,
  // peek (a resumed session's conversation, for that frame) is a file of its own: it brings zod,
  // which a launch that resumes nothing never loads.
  entryPoints: { boot: "src/start/boot.ts", peek: "src/session/peek.ts" },
  splitting: false,
});

/**
 * V8 keeps a module's source text for as long as the module lives: as one byte a character when
 * every character fits in Latin-1, else two. esbuild escapes strings but leaves comments and
 * regular expressions as written, and one "’" in a comment doubled the 1.2 MB markdown chunk to
 * 2.5 MB of the UI heap. Escaped, every chunk stays one byte a character.
 */
function latin1Sources(dir) {
  for (const name of fs.readdirSync(dir)) {
    // The CommonJS files src/start/code-cache.ts reads as Latin-1 must be ASCII: in UTF-8, é is two bytes.
    const outside = name.endsWith(".cjs") ? /[^\x00-\x7f]/ : name.endsWith(".js") ? /[^\x00-\xff]/ : undefined;
    if (!outside) continue;
    const file = path.join(dir, name);
    const text = fs.readFileSync(file, "utf8");
    if (!outside.test(text)) continue;
    // After a backslash the escape would change meaning (`\─` would become `\\u2500`).
    if (new RegExp(`\\\\${outside.source}`).test(text)) throw new Error(`${file}: a backslash before ${outside}`);
    const escaped = text.replace(
      new RegExp(outside.source, "g"),
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    fs.writeFileSync(file, escaped);
  }
}
latin1Sources("dist/bundle");

/**
 * The files src/start/code-cache.ts runs from V8's cache end with their build's hash: the cache is
 * kept per build, and V8 itself checks only the source's length.
 */
for (const name of fs.readdirSync("dist/bundle")) {
  if (name !== "one-shot.cjs" && !name.startsWith("vendor-")) continue;
  const file = path.join("dist/bundle", name);
  const text = fs.readFileSync(file, "latin1");
  fs.writeFileSync(
    file,
    `${text}\n// agent0-build ${createHash("sha256").update(text).digest("hex").slice(0, 32)}\n`,
    "latin1",
  );
}
