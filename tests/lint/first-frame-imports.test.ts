// What loads before the first frame is what main.ts imports statically plus update, view and the
// boot screen (imported together just before the paint). Heavy parsers have no place there: yaml
// and zod cost ~470 KB of code to parse and run before anything is on screen.
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";

const SRC = path.resolve(import.meta.dirname, "../../src");
const ENTRIES = ["main.ts", "ui/update/index.ts", "ui/view/index.ts", "ui/runtime/boot-screen.ts"];
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
function reach(): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const queue = ENTRIES.map((e) => [path.join(SRC, e)]);
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

describe("the first frame's module graph", () => {
  it("reaches no heavy parser or SDK", () => {
    const reached = reach();
    expect(reached.size).toBeGreaterThan(20);
    const heavy = [...reached].filter(([spec]) => HEAVY.some((h) => spec === h || spec.startsWith(`${h}/`)));
    const chains = heavy.map(([, chain]) =>
      chain.map((c) => (c.startsWith("/") ? path.relative(SRC, c) : c)).join(" -> "),
    );
    expect(chains).toEqual([]);
  });
});
