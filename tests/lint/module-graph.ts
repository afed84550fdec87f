// The static module graph of src/, as the lint tests that keep heavy code off a start path read it.
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";

const SRC = path.resolve(import.meta.dirname, "../../src");

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

/** A file as its path under src/ (ui/model.ts), a package as its name. */
const named = (spec: string) => (spec.startsWith("/") ? path.relative(SRC, spec) : spec);

/**
 * The reached packages and files named in `banned` (a package, or a folder or file under src/),
 * each with the chain of imports that reached it.
 */
export function reachedOf(entries: string[], banned: string[]): string[] {
  const reached = reach(entries);
  expect(reached.size).toBeGreaterThan(20);
  return [...reached]
    .map(([spec, chain]) => [named(spec), chain.map(named).join(" -> ")])
    .filter(([name]) => banned.some((h) => name === h || name!.startsWith(`${h}/`)))
    .map(([, chain]) => chain!);
}
