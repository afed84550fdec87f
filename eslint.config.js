// Lint: typescript-eslint's recommended rules, plus the arrows of ARCHITECTURE.md as import
// boundaries, so a file that reaches across a thread border fails here rather than in review.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Import patterns (gitignore-style, matched against the import string) a folder must not use. */
const forbid = (files, patterns, message) => ({
  files,
  rules: {
    "@typescript-eslint/no-restricted-imports": ["error", { patterns: [{ group: patterns, message }] }],
  },
});

export default tseslint.config(
  { ignores: ["dist/**", ".bench-build/**", ".bench-tmp/**", "node_modules/**", "scripts/hljs-common.cjs"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-control-regex": "off",
      "no-duplicate-imports": ["error", { includeExports: false }],
    },
  },
  {
    // `import { z }` makes the bundle keep all of zod, its ~40 locales too (570 KB more for the
    // worker to load at every start); the namespace import lets esbuild drop what is unused.
    files: ["src/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
          message: 'Use `import * as z from "zod"`: the bundle then leaves out the parts of zod that are not used.',
        },
      ],
    },
  },
  forbid(
    ["src/agent/**", "src/tools/**", "src/providers/**"],
    ["**/ui/**", "**/cli/**", "blessed"],
    "The worker's code (agent/, tools/, providers/) never reaches the UI thread's code or the terminal.",
  ),
  forbid(
    ["src/ui/**"],
    ["**/providers/**", "**/tools/**", "**/agent/**", "**/cli/**"],
    "ui/ talks to the agent only through protocol/ and ui/runtime/agent-handle.ts; I/O comes through services.",
  ),
  forbid(["src/render/**"], ["../**"], "render/ imports nothing of ours outside render/."),
  forbid(
    ["src/session/**", "src/context/**"],
    ["**/ui/**", "**/cli/**", "blessed"],
    "Storage and context never reach the UI.",
  ),
  {
    files: ["src/protocol/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: ["../**"], allowTypeImports: true, message: "protocol/ imports nothing but types." }] },
      ],
    },
  },
);
