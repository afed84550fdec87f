// No import circles in src/: a circle makes the load order decide what a module sees at start
// (a value read before its module ran is undefined), and it hides which part depends on which.
// dpdm reads the imports the way TypeScript resolves them, type-only imports included.
import path from "node:path";
import { parseCircular, parseDependencyTree } from "dpdm";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the module graph of src/", () => {
  it("has no import circle", async () => {
    const tree = await parseDependencyTree("src/**/*.ts", {
      cwd: ROOT,
      context: ROOT,
      tsconfig: path.join(ROOT, "tsconfig.json"),
      transform: false,
      skipDynamicImports: false,
    });
    // The graph was read at all: a wrong glob would find no circle in nothing.
    expect(Object.keys(tree).filter((f) => f.startsWith("src/")).length).toBeGreaterThan(200);
    const circles = parseCircular(tree).map((c) => c.join(" -> "));
    expect(circles).toEqual([]);
  });
});
