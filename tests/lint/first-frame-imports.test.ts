// What loads before the first frame: bin/agent0.js reads the command line (cli/options.ts) and
// paints through boot.ts before main loads; when it cannot, main.ts paints through the same
// boot.ts. Heavy parsers have no place there: yaml and zod cost ~470 KB of code to parse and run
// before anything is on screen, and commander ~10 ms that the early frame does not wait for.
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";

const SRC = path.resolve(import.meta.dirname, "../../src");
const EARLY = ["cli/options.ts", "boot.ts"];
const HEAVY = ["yaml", "zod", "marked", "highlight.js", "blessed", "@modelcontextprotocol/sdk"];

/** Static value imports (not `import type`, not `import()`), as source paths or package names. */
function staticImports(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm)) {
    const spec = m[1]!;
    out.push(spec.startsWith(".") ? path.resolve(path.dirname(file), spec.replace(/\.js$/, ".ts")) : spec);
  }
  return out;
}

/** Every file and package reached from the entries, with the chain that reached it. */
function reach(entries: string[]): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const queue = entries.map((e) => [path.join(SRC, e)]);
  while (queue.length) {
    const chain = queue.shift()!;
    const at = chain.at(-1)!;
    if (seen.has(at)) continue;
    seen.set(at, chain);
    if (!at.startsWith("/")) continue;
    for (const next of staticImports(at)) if (!seen.has(next)) queue.push([...chain, next]);
  }
  return seen;
}

/** The reached files and packages named in `banned`, each with the chain of imports that reached it. */
function reachedOf(entries: string[], banned: string[]): string[] {
  const reached = reach(entries);
  expect(reached.size).toBeGreaterThan(20);
  return [...reached]
    .filter(([spec]) => banned.some((h) => spec === h || spec.startsWith(`${h}/`)))
    .map(([, chain]) => chain.map((c) => (c.startsWith("/") ? path.relative(SRC, c) : c)).join(" -> "));
}

describe("the first frame's module graph", () => {
  it("reaches no heavy parser or SDK, from bin's early paint or from main's", () => {
    expect(reachedOf(EARLY, HEAVY)).toEqual([]);
    expect(reachedOf(["main.ts", "boot.ts"], HEAVY)).toEqual([]);
  });

  it("does not wait for commander before the early paint", () => {
    expect(reachedOf(EARLY, ["commander"])).toEqual([]);
  });
});
