// Nothing the engine or the reply constraint needs is loaded at start-up, and the base install does
// not bring the engine (issue 41 §2, issue 38 §3.5). Read from what `npm run build` makes
// (scripts/bundle.mjs): the TUI's ES module graph, whose chunks name their modules in `// src/…`
// comments, and the one-shot's one CommonJS file, where a module is evaluated when its `init_…()` runs.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const BUNDLE = path.resolve("dist/bundle");
const read = (name: string) => fs.readFileSync(path.join(BUNDLE, name), "utf8");

/** The bundle's files an entry loads before it runs: its static imports, followed (import() is left out). */
function staticGraph(...entries: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length) {
    const name = todo.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const m of read(name).matchAll(/(?:^|\n)import\s[^;()]*?["']\.\/([^"']+\.js)["']/g)) todo.push(m[1]!);
  }
  return seen;
}

/** The source modules bundled into these files. */
function modulesOf(files: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const f of files) for (const m of read(f).matchAll(/^\/\/ (src\/\S+\.ts)$/gm)) out.add(m[1]!);
  return out;
}

const ENGINE_ONLY = ["src/providers/embedded/provider.ts", "src/providers/embedded/gbnf-schema.ts"];

describe("start-up loads neither the engine nor the grammar", () => {
  it("the first frame (boot.js) holds no embedded provider, grammar mapping or reply schema", () => {
    const modules = modulesOf(staticGraph("boot.js"));
    expect(modules.size).toBeGreaterThan(20); // the comments this reads are there
    expect([...ENGINE_ONLY, "src/agent/replies/protocol-schema.ts"].filter((m) => modules.has(m))).toEqual([]);
  });

  it("the TUI's start (main, worker and what they import statically) holds no embedded provider or grammar mapping", () => {
    const graph = staticGraph("main.js", "worker.js");
    const modules = modulesOf(graph);
    expect(modules.has("src/agent/run-state.ts")).toBe(true);
    expect(ENGINE_ONLY.filter((m) => modules.has(m))).toEqual([]);
    // They are in the bundle, in a chunk only import() reaches (when --provider embedded is used).
    const all = modulesOf(fs.readdirSync(BUNDLE).filter((f) => f.endsWith(".js")));
    expect(ENGINE_ONLY.filter((m) => all.has(m))).toEqual(ENGINE_ONLY);
  });

  it("a one-shot evaluates the embedded provider, and with it the grammar mapping, only under import()", () => {
    const text = read("one-shot.cjs");
    const initOf = (module: string) =>
      new RegExp(`var (init_\\w+) = __esm\\(\\{\\n\\s*"${module}"\\(\\)`).exec(text)?.[1];
    const provider = initOf("src/providers/embedded/provider.ts");
    const gbnf = initOf("src/providers/embedded/gbnf-schema.ts");
    expect(provider).toBeDefined();
    expect(gbnf).toBeDefined();
    const calls = (init: string) =>
      [...text.matchAll(new RegExp(`^.*\\b${init}\\(\\).*$`, "gm"))].map((m) => m[0].trim());
    // The mapping's one caller is the provider's own init …
    const initBody = new RegExp(`var ${provider} = __esm\\(\\{[\\s\\S]*?\\n\\}\\);`).exec(text)![0];
    expect(calls(gbnf!)).toHaveLength(1);
    expect(initBody).toContain(`${gbnf}();`);
    // … which runs only as a dynamic import's body.
    const providerCalls = calls(provider!);
    expect(providerCalls.length).toBeGreaterThan(0);
    for (const call of providerCalls) expect(call).toContain(`Promise.resolve().then(() => (${provider}(),`);
  });
});

describe("the base install does not bring the engine", () => {
  const NAMES = /^(?:node-llama-cpp|@node-llama-cpp\/.*)$/;

  it("package.json and its lock name no node-llama-cpp package", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as Record<string, unknown>;
    const kinds = ["dependencies", "optionalDependencies", "peerDependencies", "devDependencies"];
    const named = kinds.flatMap((k) => Object.keys((pkg[k] as Record<string, string> | undefined) ?? {}));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((n) => NAMES.test(n))).toEqual([]);
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")) as { packages: Record<string, unknown> };
    const locked = Object.keys(lock.packages).map((p) => p.replace(/^.*node_modules\//, ""));
    expect(locked.filter((n) => NAMES.test(n))).toEqual([]);
  });

  it("no built file imports node-llama-cpp by name: it is loaded from the engine's own folder", () => {
    const files = fs.readdirSync("dist", { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    const js = files.filter((e) => /\.(c?js)$/.test(e.name)).map((e) => path.join(e.parentPath, e.name));
    expect(js.length).toBeGreaterThan(100);
    const byName = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["'](?:node-llama-cpp|@node-llama-cpp\/)/;
    expect(js.filter((f) => byName.test(fs.readFileSync(f, "utf8")))).toEqual([]);
  });
});
