// Bundles the app into dist/bundle: one module graph for the UI thread and one for the worker,
// with shared chunks. Loading a few bundled files is much faster than resolving the hundreds of
// small modules of node_modules, and start-up time is what a user of a terminal tool feels first.
import { build } from "esbuild";

await build({
  entryPoints: { main: "src/main.ts", worker: "src/core/worker.ts" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir: "dist/bundle",
  // Chunks sit beside the entries: agent.ts finds the worker as new URL("./worker.js", import.meta.url).
  chunkNames: "[name]-[hash]",
  // blessed loads widgets and terminfo relative to its own folder; ripgrep ships a binary.
  external: ["blessed", "@vscode/ripgrep"],
  banner: { js: "import { createRequire as __agent0CreateRequire } from 'node:module'; const require = __agent0CreateRequire(import.meta.url);" },
  legalComments: "none",
  logLevel: "warning",
});
