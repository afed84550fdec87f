// The edit tools' matching (tools/files/edit-match.ts via applyEdits) runs on every edit_file call:
// the exact path is the common one and must stay cheap however big the file; the whitespace-blind
// and typo strategies run only after every stricter one failed, over the same file.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

const RUNS = 20;

export async function benchEditMatch(root) {
  const dist = (p) => import(pathToFileURL(path.join(root, "dist", "tools", "files", p)).href);
  const { applyEdits } = await dist("edit.js");
  const { fileTextOf } = await dist("file-text.js");
  // A 10,000-line source file (about 400 KB) whose lines are alike, as code is.
  const lines = Array.from({ length: 10_000 }, (_, i) => `  const value${i} = compute(${i}, "item-${i}");`);
  const file = fileTextOf(lines.join("\n") + "\n", "utf8", false);
  const at = 7_000;
  const old = lines.slice(at, at + 3).join("\n");
  const time = (edit) => {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const r = applyEdits(file, [edit]);
      times.push(performance.now() - t0);
      if (!r.ok && edit.mustApply) throw new Error(r.error);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  };
  return {
    ...(await checkedPaths(dist, fileTextOf, root)),
    exact_ms: time({ old_string: old, new_string: old.replace("compute", "measure"), mustApply: true }),
    // Spaces dropped: every strict strategy fails before the whitespace-blind one (or the refusal).
    loose_ms: time({ old_string: old.replace(/ = /g, "=").replace(/, /g, ","), new_string: "x" }),
    not_found_ms: time({ old_string: "  const nothing = here();\n  return 1;", new_string: "x" }),
  };
}

/** A 5,000-line TypeScript file, as the syntax check sees a large source file (the cold child imports it). */
export function tsLines() {
  return Array.from({ length: 5_000 }, (_, i) =>
    i % 5 === 0 ? `export function f${i}(a: number): number {` : i % 5 === 4 ? "}" : `  const v${i} = a * ${i} + 1;`,
  );
}
const TS_LINES = tsLines();
const TS_TEXT = TS_LINES.join("\n") + "\n";

/**
 * The whole path before a write, matching and checks (issue 37): an exact edit and a near-miss
 * (indentation lost) on the 5,000-line file, and the parse alone, cold in a fresh process and
 * warm. A checkout without the syntax check (before issue 37) measures the matching only.
 */
async function checkedPaths(dist, fileTextOf, root) {
  const { applyEdits, judgeEdits } = await dist("edit.js");
  const file = fileTextOf(TS_TEXT, "utf8", false);
  const edit = async (e) => {
    const applied = applyEdits(file, [e]);
    if (!applied.ok) throw new Error(applied.error);
    if (judgeEdits) await judgeEdits("big.ts", file, applied);
  };
  const median = async (e) => {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await edit(e);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  };
  const line = TS_LINES[2_502];
  const out = {
    ts_exact_ms: await median({ old_string: line, new_string: line.replace("+ 1", "+ 2") }),
    ts_near_miss_ms: await median({ old_string: line.trim(), new_string: line.trim().replace("+ 1", "+ 2") + "\n" }),
  };
  let syntax;
  try {
    syntax = await dist("syntax.js");
  } catch {
    return out;
  }
  // Cold: a fresh process loads web-tree-sitter and the grammar, then parses.
  const script = `const { firstParseError } = await import(${JSON.stringify(pathToFileURL(path.join(root, "dist", "tools", "files", "syntax.js")).href)});
const { tsLines } = await import(${JSON.stringify(import.meta.url)});
const text = tsLines().join("\\n") + "\\n";
const t0 = performance.now(); await firstParseError(text, "typescript"); console.log(performance.now() - t0);`;
  const cold = [];
  for (let i = 0; i < 5; i++)
    cold.push(Number(execFileSync(process.execPath, ["--input-type=module", "-e", script]).toString()));
  cold.sort((a, b) => a - b);
  await syntax.firstParseError(TS_TEXT, "typescript");
  const warm = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await syntax.firstParseError(TS_TEXT, "typescript");
    warm.push(performance.now() - t0);
  }
  warm.sort((a, b) => a - b);
  return { ...out, parse_cold_ms: cold[2], parse_warm_ms: warm[Math.floor(warm.length / 2)] };
}

// `node bench/edit-match.mjs [root]`: the figures alone (root: another checkout to compare).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await benchEditMatch(path.resolve(process.argv[2] ?? ".")));
}
