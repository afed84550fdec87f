// Lint: typescript-eslint's recommended rules, plus the arrows of ARCHITECTURE.md as import
// boundaries, so a file that reaches across a thread border fails here rather than in review.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const ZOD_NAMESPACE = {
  selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
  message: 'Use `import * as z from "zod"`: the bundle then leaves out the parts of zod that are not used.',
};
const MODULE_STATE = [
  {
    selector:
      "Program > VariableDeclaration[kind='let'], Program > ExportNamedDeclaration > VariableDeclaration[kind='let']",
    message:
      "No module-level state: it belongs to the value that owns it (the agent session, its SessionMemory, the UI model); a cache of a pure function says so in a disable comment.",
  },
  {
    selector:
      "Program > VariableDeclaration > VariableDeclarator:not([id.typeAnnotation]) > NewExpression[callee.name=/^(Map|Set|WeakMap)$/]",
    message:
      "A module-level Map or Set is shared by every session: a constant table is typed ReadonlySet/ReadonlyMap, session state lives in the session.",
  },
];
// In the agent's and the tools' code a module-level Map or Set that is exported, or typed as the
// mutable Map or Set, can be changed from elsewhere: a table there is typed ReadonlySet/ReadonlyMap.
const COLLECTION = "/^(Map|Set|WeakMap|WeakSet)$/";
const WORKER_MODULE_STATE = [
  {
    selector: `Program > ExportNamedDeclaration > VariableDeclaration > VariableDeclarator:not([id.typeAnnotation]) > NewExpression[callee.name=${COLLECTION}]`,
    message:
      "An exported module-level Map or Set can be changed by every importer and every session: type it ReadonlySet/ReadonlyMap, or keep the state in the value that owns it.",
  },
  {
    selector: `Program > VariableDeclaration > VariableDeclarator[id.typeAnnotation.typeAnnotation.typeName.name=${COLLECTION}], Program > ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[id.typeAnnotation.typeAnnotation.typeName.name=${COLLECTION}]`,
    message:
      "A module-level Map or Set typed as mutable is state shared by every session: a constant table is typed ReadonlySet/ReadonlyMap, session state lives in the session.",
  },
];

/** An import group a folder must not use (gitignore-style patterns, matched against the import string). */
const group = (patterns, message, extra = {}) => ({ group: patterns, message, ...extra });

const WORKER_NOT_UI = group(
  ["**/ui/**", "**/cli/**", "blessed"],
  "The worker's code (agent/, tools/, providers/) never reaches the UI thread's code or the terminal.",
);
const TOOLS_NOT_AGENT = group(
  ["**/agent/**"],
  "tools/ never imports agent/: what a tool needs of the agent (runAgent, approve, memory) comes in its ToolContext.",
);
const PROVIDERS_BELOW = group(
  ["**/agent/**", "**/tools/**"],
  "providers/ sit below the agent and the tools: what they share (ToolSpec) lives in protocol/.",
);
const UI_BORDER = group(
  ["**/providers/**", "**/tools/**", "**/agent/**", "**/cli/**"],
  "ui/ talks to the agent only through protocol/ and ui/runtime/agent-handle.ts; I/O comes through services.",
);
const UPDATE_NOT_VIEW = group(["**/view/**"], "update/ never imports view/: what both need lives in ui/layout/.");
const VIEW_NOT_UPDATE = group(["**/update/**"], "view/ never imports update/: what both need lives in ui/layout/.");
const LAYOUT_BELOW = group(
  ["**/update/**", "**/view/**"],
  "ui/layout/ is what update/ and view/ share: it imports neither.",
);
const LIBRARY = group(
  ["**/ui/**", "**/cli/**", "blessed", "**/agent/**", "**/tools/**", "**/providers/**"],
  "session/, context/ and safety/ are libraries both threads use: they never reach the UI, the agent, the tools or the providers.",
);
const SEARCH = group(
  ["**/ui/**", "**/cli/**", "blessed", "**/agent/**", "**/providers/**"],
  "search/ is the file index's thread and the scorer the UI shares: it lists files with the tools' walk rules (tools/files/), and reaches neither the UI, the agent nor the providers.",
);
const CLI_THROUGH_TOOL_USE = group(
  ["**/agent/**", "**/tools/**", "**/providers/**"],
  "cli/ uses the worker's code only through cli/tool-use.ts (main-thread uses, ARCHITECTURE.md).",
);

/** The groups each folder must not import; a folder's entry holds its parent's groups too (a later entry replaces an earlier one). */
const boundary = (files, groups, extra = {}) => ({
  files,
  ...extra,
  rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: groups }] },
});

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      ".bench-build/**",
      ".bench-tmp/**",
      "node_modules/**",
      "scripts/hljs-common.cjs",
      "tests/lint/cases/**",
    ],
  },
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
    // bin/ is CommonJS (bin/package.json): a one-shot then never starts node's ES module loader.
    files: ["bin/**/*.js"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Rules that know types: every promise is awaited, returned or handed a handler, and none is
    // passed where a callback's result is ignored (an unhandled rejection ends the process).
    files: ["src/**/*.ts", "tests/**/*.ts"],
    languageOptions: { parserOptions: { project: "./tsconfig.tests.json", tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: false }],
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    // An async function that awaits nothing hides that it answers at once (tests' fakes may, to
    // stand in for the real thing).
    files: ["src/**/*.ts"],
    rules: { "@typescript-eslint/require-await": "error" },
  },
  {
    // `import { z }` makes the bundle keep all of zod, its ~40 locales too (570 KB more for the
    // worker to load at every start); the namespace import lets esbuild drop what is unused.
    files: ["src/**"],
    rules: { "no-restricted-syntax": ["error", ZOD_NAMESPACE] },
  },
  {
    // The agent's state is a value its session owns (agent/session.ts, tools/session-memory.ts), so
    // a thread can hold several sessions. Caches of pure functions say so in a disable comment.
    files: ["src/**"],
    rules: { "no-restricted-syntax": ["error", ZOD_NAMESPACE, ...MODULE_STATE] },
  },
  {
    files: ["src/agent/**", "src/tools/**"],
    rules: { "no-restricted-syntax": ["error", ZOD_NAMESPACE, ...MODULE_STATE, ...WORKER_MODULE_STATE] },
  },
  {
    // A headless run looks for children left behind only once node has reported a spawn
    // (tools/shell/process-tag.ts watchChildStarts), and node reports no synchronous one.
    files: ["src/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "node:child_process",
              importNames: ["spawnSync", "execSync", "execFileSync"],
              message:
                "A synchronous child is not reported to watchChildStarts: use spawn/execFile, or say in a disable comment why it leaves nothing behind.",
            },
          ],
        },
      ],
    },
  },
  boundary(["src/agent/**"], [WORKER_NOT_UI]),
  boundary(["src/tools/**"], [WORKER_NOT_UI, TOOLS_NOT_AGENT]),
  boundary(["src/providers/**"], [WORKER_NOT_UI, PROVIDERS_BELOW]),
  boundary(["src/ui/**"], [UI_BORDER]),
  boundary(["src/ui/update/**"], [UI_BORDER, UPDATE_NOT_VIEW]),
  boundary(["src/ui/view/**"], [UI_BORDER, VIEW_NOT_UPDATE]),
  boundary(["src/ui/layout/**"], [UI_BORDER, LAYOUT_BELOW]),
  boundary(["src/render/**"], [group(["../**"], "render/ imports nothing of ours outside render/.")]),
  boundary(["src/session/**", "src/context/**", "src/safety/**"], [LIBRARY]),
  boundary(["src/search/**"], [SEARCH]),
  // tool-use.ts is the one named module; agent-start.ts and one-shot.ts serve the agent in-process,
  // and session-agent.ts the agent sessions of `agent0 acp` and `agent0 mcp serve`.
  boundary(["src/cli/**"], [CLI_THROUGH_TOOL_USE], {
    ignores: ["src/cli/tool-use.ts", "src/cli/agent-start.ts", "src/cli/one-shot.ts", "src/cli/session-agent.ts"],
  }),
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
