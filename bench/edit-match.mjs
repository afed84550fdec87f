// The edit tools' matching (tools/files/edit-match.ts via applyEdits) runs on every edit_file call:
// the exact path is the common one and must stay cheap however big the file; the whitespace-blind
// and typo strategies run only after every stricter one failed, over the same file.
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
    exact_ms: time({ old_string: old, new_string: old.replace("compute", "measure"), mustApply: true }),
    // Spaces dropped: every strict strategy fails before the whitespace-blind one (or the refusal).
    loose_ms: time({ old_string: old.replace(/ = /g, "=").replace(/, /g, ","), new_string: "x" }),
    not_found_ms: time({ old_string: "  const nothing = here();\n  return 1;", new_string: "x" }),
  };
}

// `node bench/edit-match.mjs [root]`: the figures alone (root: another checkout to compare).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await benchEditMatch(path.resolve(process.argv[2] ?? ".")));
}
