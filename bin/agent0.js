#!/usr/bin/env node
// The bundle (dist/bundle, from `npm run build`) starts fastest. A plain `tsc` rebuild during
// development updates dist/ only; then that newer output is run instead of a stale bundle.
import { statSync } from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

// Node 22.1+ keeps V8's compiled code of our modules on disk (in the OS temp folder): the next
// start skips most parsing (the first frame's code loaded in ~31 ms instead of ~42 ms, node 22.23
// on this machine). Node 20 has no such cache; there the call is absent and nothing changes.
module.enableCompileCache?.();

const mtime = (rel) => {
  try {
    return statSync(new URL(rel, import.meta.url)).mtimeMs;
  } catch {
    return 0;
  }
};
const bundled = mtime("../dist/bundle/main.js") >= mtime("../dist/main.js");

// An entry of the bundle, or the same module in tsc's dist/ (`path`, without .js).
const entry = (name, path = name) => (bundled ? `../dist/bundle/${name}.js` : `../dist/${path}.js`);
const { readLaunch } = await import(entry("options", "cli/options"));

/** The one-shot's code: in the bundle one CommonJS file, run from V8's cache (src/cli/code-cache.ts). */
async function oneShotModule() {
  if (!bundled) return import("../dist/cli/one-shot.js");
  const { loadCachedScript } = await import("../dist/bundle/code-cache.js");
  return loadCachedScript(fileURLToPath(new URL("../dist/bundle/one-shot.cjs", import.meta.url))).exports;
}
const launch = readLaunch(process.argv.slice(2));
let boot;
if (launch.kind === "print") {
  // A line read whole needs nothing of main (nor commander): it runs in the one-shot's own module
  // graph (src/cli/one-shot.ts), and exits. Otherwise the agent's code, the longest part of a
  // headless start, starts loading (it runs on this thread) before main reads the line.
  if (launch.flags) await (await oneShotModule()).oneShot(launch.flags);
  const { startAgentEarly } = await import(entry("agent-start", "cli/agent-start"));
  startAgentEarly();
} else if (launch.kind === "tui") {
  // Before the heap first grows: V8 would otherwise plan a full collection for ~8 s later, when
  // the app has gone idle (src/ui/runtime/heap.ts says how the UI heap is collected instead). A
  // one-shot exits first; require, not import: node:v8 without its ES module facade.
  module
    .createRequire(import.meta.url)("node:v8")
    .setFlagsFromString("--no-memory-reducer-for-small-heaps");
  // The first frame goes up before main, commander and blessed load (src/boot.ts).
  boot = await import(entry("boot"));
  await boot.paintEarly(launch, () => import(entry("peek", "session/peek"))).catch(() => {}); // main paints it then, or reports what is wrong
}
try {
  await import(entry("main"));
} catch (err) {
  boot?.restoreTerminal(); // main never ran: its crash handlers never gave the terminal back
  throw err;
}
