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
const bundled = mtime("../dist/bundle/main.js");
await import(bundled >= mtime("../dist/main.js") ? "../dist/bundle/main.js" : "../dist/main.js");
