#!/usr/bin/env node
// The bundle (dist/bundle, from `npm run build`) starts fastest. A plain `tsc` rebuild during
// development updates dist/ only; then that newer output is run instead of a stale bundle.
import { statSync } from "node:fs";

const mtime = (rel) => {
  try {
    return statSync(new URL(rel, import.meta.url)).mtimeMs;
  } catch {
    return 0;
  }
};
const bundled = mtime("../dist/bundle/main.js") >= mtime("../dist/main.js");

// A headless run (-p/--print) spends most of its start loading the agent worker's code: start
// that worker first, so it loads while the command line, the config and the project are read.
const args = process.argv.slice(2);
const end = args.includes("--") ? args.indexOf("--") : args.length;
if (args.slice(0, end).some((a) => a === "-p" || a === "--print" || a.startsWith("--print="))) {
  const { startAgentEarly } = await import(bundled ? "../dist/bundle/agent-start.js" : "../dist/cli/agent-start.js");
  startAgentEarly();
}
await import(bundled ? "../dist/bundle/main.js" : "../dist/main.js");
