import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The import-boundary rules of eslint.config.js, tried on files that break them: each must fail.
// The files exist only as text, outside the TypeScript program, so the rules that need types are
// left out here (tests/lint/promises.test.ts tries those).
const eslint = new ESLint({
  overrideConfig: {
    languageOptions: { parserOptions: { project: null } },
    rules: {
      "@typescript-eslint/no-floating-promises": "off",
      "@typescript-eslint/no-misused-promises": "off",
      "@typescript-eslint/await-thenable": "off",
      "@typescript-eslint/require-await": "off",
    },
  },
});

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe("import boundaries", () => {
  it.each([
    ["src/ui/update/bad.ts", 'import { createProvider } from "../../providers/index.js";\nvoid createProvider;\n'],
    ["src/ui/bad.ts", 'import { runTool } from "../tools/runner.js";\nvoid runTool;\n'],
    ["src/agent/bad.ts", 'import { update } from "../ui/update/index.js";\nvoid update;\n'],
    ["src/tools/bad.ts", 'import blessed from "blessed";\nvoid blessed;\n'],
    ["src/providers/bad.ts", 'import { main } from "../cli/print.js";\nvoid main;\n'],
    ["src/render/bad.ts", 'import { theme } from "../ui/model.js";\nvoid theme;\n'],
    ["src/protocol/bad.ts", 'import { PROVIDERS } from "../providers/index.js";\nvoid PROVIDERS;\n'],
    // The arrows issue 28 turned round: each of these existed before it.
    ["src/tools/bad.ts", 'import { runAgent } from "../agent/loop.js";\nvoid runAgent;\n'],
    [
      "src/tools/files/bad.ts",
      'import type { McpManager } from "../../agent/mcp/servers.js";\nexport type M = McpManager;\n',
    ],
    ["src/providers/bad.ts", 'import type { ToolDef } from "../tools/types.js";\nexport type T = ToolDef;\n'],
    ["src/ui/update/bad.ts", 'import { cursorOnRow } from "../view/input.js";\nvoid cursorOnRow;\n'],
    ["src/ui/view/bad.ts", 'import { menuRows } from "../update/menu.js";\nvoid menuRows;\n'],
    ["src/ui/layout/bad.ts", 'import { view } from "../view/index.js";\nvoid view;\n'],
    ["src/cli/bad.ts", 'import { runCommand } from "../tools/shell/shell.js";\nvoid runCommand;\n'],
    ["src/cli/bad.ts", 'import { createProvider } from "../providers/index.js";\nvoid createProvider;\n'],
    ["src/session/bad.ts", 'import { maskSecrets } from "../tools/secrets.js";\nvoid maskSecrets;\n'],
    ["src/safety/bad.ts", 'import { runAgent } from "../agent/loop.js";\nvoid runAgent;\n'],
  ])("%s is rejected", async (file, code) => {
    const found = await problems(file, code);
    expect(found.some((p) => p.startsWith("@typescript-eslint/no-restricted-imports"))).toBe(true);
  });

  it.each([
    ["src/ui/update/ok.ts", 'import { theme } from "../../render/theme.js";\nvoid theme;\n'],
    ["src/protocol/ok.ts", 'import type { Skill } from "../context/skills.js";\nexport type S = Skill;\n'],
    ["src/agent/ok.ts", 'import { createProvider } from "../providers/index.js";\nvoid createProvider;\n'],
    ["src/ui/update/ok.ts", 'import { wrapInput } from "../layout/input.js";\nvoid wrapInput;\n'],
    ["src/ui/view/ok.ts", 'import { menuRows } from "../layout/menu.js";\nvoid menuRows;\n'],
    ["src/cli/tool-use.ts", 'import { runCommand } from "../tools/shell/shell.js";\nvoid runCommand;\n'],
    ["src/session/ok.ts", 'import { maskSecrets } from "../safety/secrets.js";\nvoid maskSecrets;\n'],
  ])("%s is allowed", async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});

describe("module-level state anywhere in src/", () => {
  it.each([
    ["src/agent/bad.ts", "let current = 0;\nexport const next = () => ++current;\n"],
    [
      "src/tools/files/bad.ts",
      "const seen = new Map<string, string>();\nexport const mark = (k: string) => seen.set(k, k);\n",
    ],
    ["src/tools/bad.ts", "export let last: string | undefined;\n"],
    ["src/ui/update/bad.ts", "let count = 0;\nexport const bump = () => ++count;\n"],
    ["src/cli/bad.ts", "const open = new Set<string>();\nexport const add = (k: string) => open.add(k);\n"],
  ])("%s is rejected", async (file, code) => {
    const found = await problems(file, code);
    expect(
      found.some(
        (p) => p.startsWith("no-restricted-syntax: No module-level state") || p.includes("shared by every session"),
      ),
    ).toBe(true);
  });

  // The gap issue 36 closed: the first rule saw only an untyped, unexported `const x = new Map()`.
  it.each([
    ["src/agent/bad.ts", "export const pending = new Map<string, number>();\n"],
    ["src/tools/shell/bad.ts", 'export const WORDS = new Set(["a"]);\n'],
    [
      "src/agent/mcp/bad.ts",
      "const servers: Map<string, string> = new Map();\nexport const add = (k: string) => servers.set(k, k);\n",
    ],
    ["src/tools/bad.ts", "export const seen: Set<string> = new Set();\n"],
    [
      "src/tools/bad.ts",
      "const byTool: WeakMap<object, string> = new WeakMap();\nexport const name = (t: object) => byTool.get(t);\n",
    ],
  ])("%s: an exported or mutably typed module-level collection is rejected", async (file, code) => {
    const found = await problems(file, code);
    expect(found.some((p) => p.includes("module-level Map or Set"))).toBe(true);
  });

  it("an exported table typed ReadonlySet is allowed", async () => {
    expect(await problems("src/tools/ok.ts", 'export const WORDS: ReadonlySet<string> = new Set(["a"]);\n')).toEqual(
      [],
    );
  });

  it("a constant table typed ReadonlySet is allowed", async () => {
    expect(
      await problems(
        "src/agent/ok.ts",
        'const WORDS: ReadonlySet<string> = new Set(["a"]);\nexport const has = (w: string) => WORDS.has(w);\n',
      ),
    ).toEqual([]);
    expect(await problems("src/tools/ok.ts", 'export const SKIP: ReadonlySet<string> = new Set([".git"]);\n')).toEqual(
      [],
    );
  });
});
