#!/usr/bin/env node
// The bundle (dist/bundle, from `npm run build`) starts fastest. A plain `tsc` rebuild during
// development updates dist/ only; then that newer output is run instead of a stale bundle.
//
// CommonJS (bin/package.json): a headless one-shot then loads no ES module at all (options.cjs,
// code-cache.cjs, then one-shot.cjs from V8's cache), and node never starts its ES module loader
// (~3 ms of every one-shot). The TUI's code is ES modules, imported when a launch needs it.
"use strict";
const { statSync } = require("node:fs");
const nodeModule = require("node:module");
const path = require("node:path");

// Node 22.1+ keeps V8's compiled code of our modules on disk (in the OS temp folder): the next
// start skips most parsing (the first frame's code loaded in ~31 ms instead of ~42 ms, node 22.23
// on this machine). Node 20 has no such cache; there the call is absent and nothing changes.
nodeModule.enableCompileCache?.();

const mtime = (rel) => {
  try {
    return statSync(path.join(__dirname, rel)).mtimeMs;
  } catch {
    return 0;
  }
};
const bundled = mtime("../dist/bundle/main.js") >= mtime("../dist/start/main.js");

// An ES module entry of the bundle, or the same module in tsc's dist/ (`rel`, without .js).
const entry = (name, rel = name) => (bundled ? `../dist/bundle/${name}.js` : `../dist/${rel}.js`);

/** The command line's reader: in the bundle a CommonJS file; tsc's dist/ has ES modules only. */
const options = () =>
  bundled ? Promise.resolve(require("../dist/bundle/options.cjs")) : import("../dist/start/options.js");

/** The one-shot's code: in the bundle one CommonJS file, run from V8's cache (src/start/code-cache.ts). */
async function oneShotModule() {
  if (!bundled) return import("../dist/start/one-shot.js");
  const { loadCachedScript } = require("../dist/bundle/code-cache.cjs");
  return loadCachedScript(path.join(__dirname, "../dist/bundle/one-shot.cjs")).exports;
}

async function main() {
  const launch = (await options()).readLaunch(process.argv.slice(2));
  let boot;
  if (launch.kind === "print") {
    // A line read whole needs nothing of main (nor commander): it runs in the one-shot's own
    // bundle (src/start/one-shot.ts), and exits. Otherwise the agent's code, the longest part of a
    // headless start, starts loading (it runs on this thread) before main reads the line.
    if (launch.flags) await (await oneShotModule()).oneShot(launch.flags);
    const { startAgentEarly } = await import(entry("agent-start", "cli/agent-start"));
    startAgentEarly();
  } else if (launch.kind === "tui") {
    // Before the heap first grows: V8 would otherwise plan a full collection for ~8 s later, when
    // the app has gone idle (src/ui/runtime/heap.ts says how the UI heap is collected instead). A
    // one-shot exits first.
    require("node:v8").setFlagsFromString("--no-memory-reducer-for-small-heaps");
    // The first frame goes up before main, commander and blessed load (src/start/boot.ts).
    boot = await import(entry("boot", "start/boot"));
    await boot.paintEarly(launch, () => import(entry("peek", "session/peek"))).catch(() => {}); // main paints it then, or reports what is wrong
  }
  try {
    // What the boot frame's own copies of its modules hold goes to main's as a value (src/start/boot.ts).
    const app = await import(entry("main", "start/main"));
    await app.start(boot?.handOver());
  } catch (err) {
    boot?.restoreTerminal(); // main never ran: its crash handlers never gave the terminal back
    throw err;
  }
}

// What main could not start with ends the process as an uncaught error would: the stack, exit 1.
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
