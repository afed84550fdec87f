import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCtx, project } from "./ctx.js";
import { callTool } from "./call.js";
import { grep, formatGrep, type GrepEngine, type GrepQuery } from "../../src/tools/files/search.js";
import { SearchBudget } from "../../src/tools/files/search-budget.js";

const TREE = {
  ".gitignore": "dist/\n*.log\n",
  "src/app.ts": "import { parseArgs } from './args';\nparseArgs(process.argv);\n",
  "src/args.ts": "export function parseArgs(argv: string[]) {\n  return argv;\n}\r\n",
  "src/deep/inner.tsx": "// ParseArgs in a comment\n",
  "src/sub/.gitignore": "generated.ts\n",
  "src/sub/generated.ts": "parseArgs()\n",
  ".github/ci.yml": "run: parseArgs\n",
  "dist/bundle.js": "parseArgs()\n",
  "debug.log": "parseArgs failed\n",
  "node_modules/x/index.js": "parseArgs\n",
  "image.bin": Buffer.concat([Buffer.from("parseArgs"), Buffer.from([0, 1, 2])]),
  "README.md": "Use parseArgs.\n",
};

/** grep through one engine as the tool would, formatted for the model. */
async function grepVia(engine: GrepEngine, dir: string, q: Partial<GrepQuery> & { pattern: string }): Promise<string> {
  const query: GrepQuery = { root: dir, searchRel: ".", ignoreCase: false, ...q };
  return formatGrep(await grep(query, engine), q.pattern, query.searchRel).content;
}

describe("grep_files", () => {
  it("finds lines as path:line: text, sorted, skipping ignored, binary, .git and node_modules", async () => {
    const dir = project(TREE);
    const result = await callTool(makeCtx(dir), "grep_files", { pattern: "parseArgs" });
    expect(result).toEqual({
      content: [
        ".github/ci.yml:1: run: parseArgs",
        "README.md:1: Use parseArgs.",
        "src/app.ts:1: import { parseArgs } from './args';",
        "src/app.ts:2: parseArgs(process.argv);",
        "src/args.ts:1: export function parseArgs(argv: string[]) {",
      ].join("\n"),
    });
  });

  it("ripgrep and the JavaScript fallback give the same result", async () => {
    const dir = project(TREE);
    const queries: (Partial<GrepQuery> & { pattern: string })[] = [
      { pattern: "parseArgs" },
      { pattern: "parseargs", ignoreCase: true },
      { pattern: "^\\s+return" },
      { pattern: "parseArgs", searchRel: "src" },
      { pattern: "parseArgs", glob: "*.tsx", ignoreCase: true },
      { pattern: "parseArgs", glob: "src/*.ts" },
      { pattern: "parseArgs", glob: "!*.md" },
      { pattern: "\\}$" },
      { pattern: "nothing-like-this" },
    ];
    for (const q of queries) {
      const viaRg = await grepVia("rg", dir, q);
      const viaJs = await grepVia("js", dir, q);
      expect({ q, out: viaJs }).toEqual({ q, out: viaRg });
    }
    expect(await grepVia("rg", dir, { pattern: "}$" })).toBe("src/args.ts:3: }");
  });

  it("falls back to JavaScript when the ripgrep binary cannot run", async () => {
    const dir = project(TREE);
    const query: GrepQuery = { pattern: "argv", root: dir, searchRel: "src", ignoreCase: false };
    const viaMissingBinary = await grep(query, "auto", path.join(dir, "no-such-rg"));
    expect(formatGrep(viaMissingBinary, "argv", "src").content).toBe(
      "src/app.ts:2: parseArgs(process.argv);\nsrc/args.ts:1: export function parseArgs(argv: string[]) {\nsrc/args.ts:2:   return argv;",
    );
  });

  it("says the same thing when nothing matches", async () => {
    const dir = project(TREE);
    const ctx = makeCtx(dir);
    expect(await callTool(ctx, "grep_files", { pattern: "zzz" })).toEqual({
      content: 'No matches for "zzz" in the project folder.',
    });
    expect(await callTool(ctx, "grep_files", { pattern: "zzz", path: "src" })).toEqual({
      content: 'No matches for "zzz" in src.',
    });
    expect(await grepVia("js", dir, { pattern: "zzz", searchRel: "src" })).toBe('No matches for "zzz" in src.');
  });

  it("caps the matches with a count of what was left out, the same in both engines", async () => {
    const many = Array.from({ length: 250 }, (_, i) => `hit ${i}`).join("\n");
    const dir = project({ "a.txt": many, "b.txt": "hit b\n" });
    const viaRg = await grepVia("rg", dir, { pattern: "hit" });
    const lines = viaRg.split("\n");
    expect(lines).toHaveLength(201);
    expect(lines[199]).toBe("a.txt:200: hit 199");
    expect(lines[200]).toBe("[first 200 of 251 matches; narrow the pattern or the path]");
    expect(await grepVia("js", dir, { pattern: "hit" })).toBe(viaRg);
  });

  it("over a huge tree, stops counting once its budget is spent and says the count is a floor", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`d${i % 10}/f${i}.txt`] = "hit\nhit\n";
    const dir = project(files);
    for (const engine of ["rg", "js"] as const) {
      // A spent budget: whatever has come in once the page is full is all there is.
      const budget = new SearchBudget(undefined, "matches", { countMs: -1, searchMs: 60_000 });
      const q: GrepQuery = { pattern: "hit", root: dir, searchRel: ".", ignoreCase: false, budget, shown: 200 };
      const outcome = await grep(q, engine);
      expect(outcome.ok && outcome.stopped).toBe("count-time");
      const text = formatGrep(outcome, "hit", ".").content;
      expect(text.split("\n")).toHaveLength(201);
      expect(text).toMatch(/\n\[first 200 of [\d,]+\+ matches; narrow the pattern or the path\]$/);
      const timedOut = new SearchBudget(undefined, "matches", { countMs: 60_000, searchMs: -1 });
      const partial = await grep({ ...q, budget: timedOut }, engine);
      expect(formatGrep(partial, "hit", ".").content).toMatch(/\[stopped before the end of the tree \(time limit\): /);
    }
    // A pattern found nowhere in a huge tree prints nothing for long: the budget still ends the
    // search (on its clock), which says so. A stand-in for rg that searches forever, silently.
    const slowRg = path.join(dir, "slow-rg.sh");
    fs.writeFileSync(slowRg, "#!/bin/sh\nexec sleep 30\n", { mode: 0o755 });
    const silent = new SearchBudget(undefined, "matches", { countMs: 60_000, searchMs: -1 });
    const q: GrepQuery = {
      pattern: "absent",
      root: dir,
      searchRel: ".",
      ignoreCase: false,
      budget: silent,
      shown: 200,
    };
    const none = formatGrep(await grep(q, "rg", slowRg), "absent", ".");
    expect(none.content).toMatch(/^\[stopped before the end of the tree \(time limit\): 0 matches so far/);
  });

  it("reports a bad regular expression as an error", async () => {
    const dir = project(TREE);
    const viaRg = await callTool(makeCtx(dir), "grep_files", { pattern: "(unclosed" });
    expect(viaRg.isError).toBe(true);
    expect(viaRg.content.startsWith("Error: invalid search: ")).toBe(true);
    expect((await grepVia("js", dir, { pattern: "(unclosed" })).startsWith("Error: invalid search: ")).toBe(true);
  });

  it("refuses a path outside the project or missing", async () => {
    const dir = project(TREE);
    const ctx = makeCtx(dir);
    expect(await callTool(ctx, "grep_files", { pattern: "x", path: ".." })).toEqual({
      content: `Error: .. is outside the project folder ${dir}; file tools only work inside it.`,
      isError: true,
    });
    expect(await callTool(ctx, "grep_files", { pattern: "x", path: "lib" })).toEqual({
      content: "Error: lib does not exist.",
      isError: true,
    });
  });
});

describe("glob_files", () => {
  it("lists matching files sorted, relative to the project, respecting .gitignore", async () => {
    const dir = project(TREE);
    const ctx = makeCtx(dir);
    expect((await callTool(ctx, "glob_files", { pattern: "**/*.ts" })).content).toBe("src/app.ts\nsrc/args.ts");
    expect((await callTool(ctx, "glob_files", { pattern: "*.tsx", path: "src/deep" })).content).toBe(
      "src/deep/inner.tsx",
    );
    expect((await callTool(ctx, "glob_files", { pattern: "**/*.js" })).content).toBe(
      'No files match "**/*.js" in the project folder.',
    );
    expect((await callTool(ctx, "glob_files", { pattern: "*.yml", path: ".github" })).content).toBe(".github/ci.yml");
  });

  it("caps the list with a count of what was left out", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 510; i++) files[`f/${String(i).padStart(3, "0")}.txt`] = "";
    const dir = project(files);
    const lines = (await callTool(makeCtx(dir), "glob_files", { pattern: "f/*.txt" })).content.split("\n");
    expect(lines).toHaveLength(501);
    expect(lines[499]).toBe("f/499.txt");
    expect(lines[500]).toBe("[first 500 of 510 files; narrow the pattern or the path]");
  });

  it("refuses patterns that climb out and paths outside", async () => {
    const dir = project(TREE);
    fs.symlinkSync("/", path.join(dir, "rootlink"));
    const ctx = makeCtx(dir);
    expect((await callTool(ctx, "glob_files", { pattern: "../*" })).content).toBe(
      'Error: the pattern must be relative to the searched folder, without "..".',
    );
    expect((await callTool(ctx, "glob_files", { pattern: "*", path: "rootlink" })).content).toBe(
      `Error: rootlink is outside the project folder ${dir}; file tools only work inside it.`,
    );
  });
});
