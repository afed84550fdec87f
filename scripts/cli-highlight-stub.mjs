// Bundled in place of cli-highlight (scripts/bundle.mjs). marked-terminal imports it for fenced
// code, but render/markdown-engine.ts renders fenced code itself (render/highlight.ts), so it is
// never called; the real one would load parse5 and its tree adapter: ~1.4 MB of the UI heap.
export function highlight(code) {
  return code;
}
