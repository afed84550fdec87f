// grep_files over a generated tree of 20,000 files: the ripgrep path and the JavaScript fallback.
// Run after `npx tsc -p .`:  node bench/grep-bench.mjs [files]
// Prints one JSON line: {"grep_rg_ms": .., "grep_fallback_ms": .., "files": .., "matches": ..}
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const searchModule = pathToFileURL(path.join(here, "..", "dist", "tools", "files", "search.js")).href;

/** Writes `files` small source files, 100 per folder; every 50th holds the needle. */
function makeTree(root, files) {
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, `pkg${Math.floor(i / 1000)}`, `mod${Math.floor(i / 100) % 10}`);
    if (i % 100 === 0) fs.mkdirSync(dir, { recursive: true });
    const lines = [];
    for (let l = 0; l < 30; l++) lines.push(`export const value${l} = compute(${i}, ${l}); // line ${l}`);
    if (i % 50 === 0) lines.push("const needle = findTheNeedle();");
    fs.writeFileSync(path.join(dir, `file${i}.ts`), `${lines.join("\n")}\n`);
  }
  fs.writeFileSync(path.join(root, ".gitignore"), "ignored/\n");
}

async function timeIt(fn) {
  const start = process.hrtime.bigint();
  const result = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

/** Generates the tree, times both engines (one warm-up run each, then the median of 3), removes the tree. */
export async function benchGrep({ files = 20_000, runs = 3 } = {}) {
  const { grep } = await import(searchModule);
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent0-grep-bench-")));
  try {
    makeTree(root, files);
    const query = { pattern: "findTheNeedle", root, searchRel: ".", ignoreCase: false };
    const measure = async (engine) => {
      await grep(query, engine);
      const times = [];
      let matches = 0;
      for (let r = 0; r < runs; r++) {
        const { ms, result } = await timeIt(() => grep(query, engine));
        if (!result.ok) throw new Error(`${engine}: ${result.error}`);
        matches = result.matches.length;
        times.push(ms);
      }
      times.sort((a, b) => a - b);
      return { ms: Math.round(times[Math.floor(times.length / 2)]), matches };
    };
    const rg = await measure("rg");
    const js = await measure("js");
    if (rg.matches !== js.matches) throw new Error(`engines disagree: rg ${rg.matches}, js ${js.matches} matches`);
    return { grep_rg_ms: rg.ms, grep_fallback_ms: js.ms, files, matches: rg.matches };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = process.argv[2] ? Number(process.argv[2]) : undefined;
  console.log(JSON.stringify(await benchGrep(files ? { files } : {})));
}
