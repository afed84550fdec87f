// The file's own syntax (issue 37, part 2), through the real tools: a near-miss edit that breaks a
// file that parsed is refused (the file is byte-identical, the reason names the line); an exact
// edit, write_file and apply_patch are written and say the file no longer parses. Aider's
// lint-after-edit (aider/linter.py: tree-sitter errors, then the language's compiler) made a guard.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCtx, project } from "./ctx.js";
import { callTool, runCall } from "./call.js";
import { applyPatchTool } from "../../src/tools/files/apply-patch.js";
import { firstParseError, grammarOf, type Grammar } from "../../src/tools/files/syntax.js";

const read = (dir: string, f: string) => fs.readFileSync(path.join(dir, f), "utf8");

interface Case {
  what: string;
  source: string;
  name: string;
  file: string;
  old: string;
  new: string;
  /** "refuse": the file is unchanged and the refusal names this line. */
  outcome: { refusedAt: number; by: string } | { written: string; note?: RegExp };
}

const PY = "def total(items):\n    s = 0\n    for i in items:\n        s += i\n    return s\n";
const TS = "export function f(a: number) {\n  if (a > 0) {\n    return a;\n  }\n  return 0;\n}\n";

const CASES: Case[] = [
  {
    what: "TypeScript: a near-miss leaving a brace open is refused",
    source: "deps.md (tree-sitter reports unbalanced braces in TypeScript); aider/linter.py basic_lint",
    name: "f.ts",
    file: TS,
    old: "if (a > 0) {\n  return a;\n}", // indentation-flexible
    new: "if (a > 0) {\n  return a;",
    outcome: { refusedAt: 5, by: "tree-sitter (typescript)" },
  },
  {
    what: "JSON: a near-miss doubling a comma is refused",
    source: "deps.md (a doubled comma in JSON); opencode issue pastes of package.json edits",
    name: "p.json",
    file: '{\n  "a": 1,\n  "b": 2\n}\n',
    old: '"a":1,\n"b":2', // whitespace-blind
    new: '"a": 1,,\n"b": 2',
    outcome: { refusedAt: 2, by: "tree-sitter (json)" },
  },
  {
    what: "Python: a dedent to no block's level passes tree-sitter, python3 refuses it",
    source: "deps.md (tree-sitter's Python grammar accepts it; CPython: IndentationError)",
    name: "t.py",
    file: PY,
    old: "    for i in items:  \n        s += i\n    return s", // line-trimmed
    new: "    for i in items:\n        s += i\n  return s",
    outcome: { refusedAt: 5, by: "python3 (ast.parse)" },
  },
  {
    what: "a grammar that lags its language: node --check accepts what tree-sitter does not",
    source: "Node.js docs, ECMAScript modules: import assertions (`assert { type: 'json' }`, accepted by Node 20)",
    name: "m.mjs",
    file: "import fs from 'node:fs';\nexport const a = fs.existsSync('x');\n",
    old: "import fs from 'node:fs';   ", // line-trimmed
    new: "import fs from 'node:fs';\nimport data from './d.json' assert { type: 'json' };",
    outcome: {
      written:
        "import fs from 'node:fs';\nimport data from './d.json' assert { type: 'json' };\nexport const a = fs.existsSync('x');\n",
      note: /Syntax checked by node --check\./,
    },
  },
  {
    what: "shape 5: a diff pasted as new_string into Python is read without its markers",
    source: "issue 37 shape 5; codex-rs apply-patch (hunks of '+', '-' and ' ' lines)",
    name: "t.py",
    file: PY,
    old: "        s += i\n",
    new: "-        s += i\n+        s += i * 2\n",
    outcome: { written: PY.replace("s += i\n", "s += i * 2\n"), note: /read as a diff/ },
  },
  {
    what: "a diff pasted as new_string into a file nothing can check is refused",
    source: "issue 37 part 1 (diff markers: read without them only when every check passes)",
    name: "notes.txt",
    file: "first\nsecond\n",
    old: "second\n",
    new: "+second\n+third\n",
    outcome: { refusedAt: 0, by: "reads like a diff" },
  },
  {
    what: "a near-miss on a file that did not parse before is judged by part 1 alone",
    source: "issue 37 part 2 (a file that did not parse before)",
    name: "broken.ts",
    file: "function f( {\n  return 1;\n}\n",
    // Trailing spaces the file does not have: a near-miss (line-trimmed), which on a file that parsed
    // would be refused for the file's own old error; here only part 1 judges it.
    old: "return 1;  \n}",
    new: "return 2;\n}",
    outcome: { written: "function f( {\n  return 2;\n}\n" },
  },
  {
    what: "an exact edit that breaks Python is written and says so, with the line",
    source: "issue 37 part 2 (an exact edit may pass through an invalid state)",
    name: "t.py",
    file: PY,
    old: "    for i in items:\n",
    new: "    for i in items\n",
    outcome: {
      written: PY.replace("items:\n", "items\n"),
      note: /no longer parses \(tree-sitter \(python\)\): line 3/,
    },
  },
];

async function run(c: Case) {
  const dir = project({ [c.name]: c.file });
  const r = await callTool(makeCtx(dir), "edit_file", { path: c.name, old_string: c.old, new_string: c.new });
  return { dir, r };
}

describe("edits judged by the file's syntax", () => {
  it.each(CASES.map((c) => [c.what, c] as const))("%s", async (_w, c) => {
    const { dir, r } = await run(c);
    if ("refusedAt" in c.outcome) {
      expect(r.isError, r.content).toBe(true);
      expect(r.content).toContain(c.outcome.by);
      if (c.outcome.refusedAt > 0) expect(r.content).toContain(`line ${c.outcome.refusedAt},`);
      expect(read(dir, c.name)).toBe(c.file);
      return;
    }
    expect(r.isError, r.content).toBeUndefined();
    expect(read(dir, c.name)).toBe(c.outcome.written);
    if (c.outcome.note) expect(r.content).toMatch(c.outcome.note);
  });
});

describe("write_file and apply_patch are written and told", () => {
  it("write_file of JSON that does not parse", async () => {
    const dir = project({ "c.json": '{"a": 1}\n' });
    const ctx = makeCtx(dir);
    await callTool(ctx, "read_file", { path: "c.json" });
    const r = await callTool(ctx, "write_file", { path: "c.json", content: '{"a": 1,, "b": 2}\n' });
    expect(read(dir, "c.json")).toBe('{"a": 1,, "b": 2}\n');
    expect(r.content).toMatch(/c\.json no longer parses \(tree-sitter \(json\)\): line 1/);
  });

  it("apply_patch with an exact hunk that breaks Go", async () => {
    const go = "package main\n\nfunc main() {\n\tprintln(1)\n}\n";
    const dir = project({ "m.go": go });
    const patch =
      "*** Begin Patch\n*** Update File: m.go\n@@\n func main() {\n-\tprintln(1)\n+\tprintln(1\n }\n*** End Patch";
    const r = await runCall({ id: "p1", name: "apply_patch", args: { patch } }, [applyPatchTool], makeCtx(dir));
    expect(r.isError, r.content).toBeUndefined();
    expect(read(dir, "m.go")).toBe(go.replace("println(1)", "println(1"));
    expect(r.content).toMatch(/m\.go no longer parses \(tree-sitter \(go\)\)/);
  });
});

/** Every language the issue names has a grammar that loads and tells a good file from a broken one. */
const LANGS: [string, Grammar, string, string][] = [
  ["a.ts", "typescript", "const a: number = 1;\n", "const a: number = ;\n"],
  ["a.tsx", "tsx", "const a = <div>{x}</div>;\n", "const a = <div>{x</div>;\n"],
  ["a.js", "javascript", "let a = [1, 2];\n", "let a = [1, 2;\n"],
  ["a.py", "python", "def f():\n    return 1\n", "def f(:\n    return 1\n"],
  ["a.go", "go", "package a\nfunc f() {}\n", "package a\nfunc f() {\n"],
  ["a.rs", "rust", "fn f() -> i32 { 1 }\n", "fn f() -> i32 { 1 \n"],
  ["A.java", "java", "class A { void f() {} }\n", "class A { void f() { }\n"],
  ["a.c", "c", "int f(void) { return 1; }\n", "int f(void) { return 1; \n"],
  ["a.cpp", "cpp", "int f() { return 1; }\n", "int f() { return 1 }\n"],
  ["a.cs", "c_sharp", "class A { void F() {} }\n", "class A { void F() { }\n"],
  ["a.rb", "ruby", "def f\n  1\nend\n", "def f\n  (1\nend\n"],
  ["a.php", "php", "<?php\nfunction f() { return 1; }\n", "<?php\nfunction f() { return 1; \n"],
  ["a.sh", "bash", "if true; then\n  echo a\nfi\n", "if true; then\n  echo a\n"],
  ["a.json", "json", '{"a": [1]}\n', '{"a": [1}\n'],
  ["a.yaml", "yaml", "a:\n  - 1\n", "a: [1\n"],
  ["a.toml", "toml", "[a]\nb = 1\n", "[a\nb = 1\n"],
  ["a.css", "css", "a { color: red; }\n", "a { color: red; \n"],
  ["a.html", "html", "<p>hi</p>\n", "<p>hi</p\n"],
];

describe("the grammars the issue names", () => {
  it.each(LANGS)("%s (%s)", async (file, grammar, good, bad) => {
    expect(grammarOf(file)).toBe(grammar);
    expect(await firstParseError(good, grammar)).toBeNull();
    expect(await firstParseError(bad, grammar)).toMatchObject({ line: expect.any(Number) });
  });
});
