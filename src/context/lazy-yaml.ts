/**
 * yaml (~260 KB of code) is loaded on first use, not at start: only frontmatter (skills in the
 * SKILL.md format, memories, sub-agent types, Claude commands) and saving a memory need it, and
 * most runs, a headless one-shot above all, read none. In the bundle it is a file of its own,
 * dist/bundle/yaml.cjs (scripts/bundle.mjs): bundled into a chunk, its text would still be read
 * and parsed at every start (~5 ms) even when never run. Unbundled (tsc output, tests), Node's
 * require loads the package.
 */
import { createRequire } from "node:module";

type Yaml = typeof import("yaml");

const nodeRequire = createRequire(import.meta.url);
/** This module runs from dist/bundle/ (the bundle) or from tsc's dist/context/ or src/ (tests). */
const bundled = import.meta.url.includes("/bundle/");

// eslint-disable-next-line no-restricted-syntax -- a cache: the module, loaded on first use
let yaml: Yaml | undefined;

export function lazyYaml(): Yaml {
  yaml ??= nodeRequire(bundled ? "./yaml.cjs" : "yaml") as Yaml;
  return yaml;
}
