// Bundled in place of node-emoji for marked-terminal (scripts/bundle.mjs), which only calls
// `get(":name:")` when a word in colons appears in an answer. node-emoji's table is ~1.5 MB of
// the UI heap from the moment it loads: `require` keeps it (bundled, not yet run) until the first
// such word.
let emoji;
export function get(name) {
  // A require, not an import: esbuild bundles it but runs it only at this call.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  emoji ??= require("node-emoji");
  return emoji.get(name);
}
