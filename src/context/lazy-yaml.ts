/**
 * yaml (~260 KB of code) is loaded on first use, not at start: only frontmatter (skills in the
 * SKILL.md format, memories, sub-agent types, Claude commands) and saving a memory need it, and
 * most runs, a headless one-shot above all, read none. The same lazy `require` as
 * render/lazy-width.ts: esbuild keeps the literal call as a bundled module that runs when first
 * called; unbundled (tsc output, tests), Node's own require loads yaml's CommonJS build.
 */
import { createRequire } from "node:module";

type Yaml = typeof import("yaml");

const nodeRequire = createRequire(import.meta.url);
const bundled = typeof require === "function";

let yaml: Yaml | undefined;

export function lazyYaml(): Yaml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
  yaml ??= (bundled ? require("yaml") : nodeRequire("yaml")) as Yaml;
  return yaml;
}
