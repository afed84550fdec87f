// What `npm run build` makes of a headless one-shot (scripts/one-shot-bundle.mjs): one CommonJS
// file that src/cli/code-cache.ts reads as Latin-1, and the vendor files it loads on the paths
// that need them.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const BUNDLE = path.resolve("dist/bundle");
const oneShot = () => fs.readFileSync(path.join(BUNDLE, "one-shot.cjs"), "utf8");

describe("the one-shot's bundle", () => {
  it("is ASCII, so that reading it as Latin-1 gives the same text", () => {
    const text = oneShot();
    expect(text.length).toBeGreaterThan(100_000);
    expect(text.match(/[^\x00-\x7f]/g) ?? []).toEqual([]);
  });

  it("leaves out the packages only some runs use, and the TUI's", () => {
    const packages = new Set([...oneShot().matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]));
    expect(packages.size).toBeGreaterThan(3); // the comments this reads are there
    const absent = ["@anthropic-ai/sdk", "openai", "@modelcontextprotocol/sdk", "fast-glob", "turndown"];
    const tui = ["blessed", "marked", "marked-terminal", "highlight.js", "yaml"];
    expect([...absent, ...tui].filter((p) => packages.has(p))).toEqual([]);
  });

  it("calls no import(): vm.Script has no loader for it, and the import would fail (sharp did)", () => {
    const files = fs.readdirSync(BUNDLE).filter((n) => n === "one-shot.cjs" || n.startsWith("vendor-"));
    expect(files.length).toBeGreaterThan(1);
    // An SDK's error message may say `import('node:buffer')`: only calls count. The engine's loader is
    // the one import() on purpose (src/providers/embedded/engine.ts): it is an ES module with top-level
    // await, and the code cache gives the script the main context's loader for it.
    const calls = (name: string) =>
      fs
        .readFileSync(path.join(BUNDLE, name), "utf8")
        .replace('new Function("specifier", "return import(specifier)")', "")
        .match(/(?<![`'"\w$.])import\(/g) ?? [];
    expect(files.filter((n) => calls(n).length > 0)).toEqual([]);
  });

  it("ends each file the code cache loads with its build's hash (the cache is kept per build)", () => {
    const files = fs.readdirSync(BUNDLE).filter((n) => n === "one-shot.cjs" || n.startsWith("vendor-"));
    for (const name of files) {
      const text = fs.readFileSync(path.join(BUNDLE, name), "latin1");
      const m = /\n\/\/ agent0-build ([0-9a-f]{32})\n$/.exec(text);
      expect(m, name).not.toBeNull();
      const body = text.slice(0, m!.index);
      expect(createHash("sha256").update(body).digest("hex").slice(0, 32)).toBe(m![1]);
    }
  });

  it("finds each vendor file it loads beside it, each ASCII too", () => {
    const loads = [...oneShot().matchAll(/__agent0_load\("([^"]+)"\)/g)].map((m) => m[1]!);
    expect(new Set(loads)).toEqual(
      new Set([
        "vendor-anthropic-ai-sdk.cjs",
        "vendor-openai.cjs",
        "vendor-modelcontextprotocol-sdk.cjs",
        "vendor-fast-glob.cjs",
        "vendor-turndown.cjs",
      ]),
    );
    for (const name of loads) expect(/[^\x00-\x7f]/.test(fs.readFileSync(path.join(BUNDLE, name), "utf8"))).toBe(false);
  });
});
