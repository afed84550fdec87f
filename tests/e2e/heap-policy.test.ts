// The UI heap's collection policy (src/ui/runtime/heap.ts), run from the build in a node process of
// its own: V8's flags belong to the whole process.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT } from "./harness.js";

const HEAP = pathToFileURL(path.join(ROOT, "dist", "ui", "runtime", "heap.js")).href;

/**
 * Major collections (as node's gc entries report them) while a fresh heap grows as the app's does
 * after its first frame: from ~5 MB to ~17 MB of old generation (code, modules, the screen), with
 * short-lived garbage on the way. Arrays this long go to the old generation at once, as code does.
 */
function majorsWhileGrowing(settle: boolean): { majors: number; oldMb: number } {
  const script = `
    import v8 from "node:v8";
    import { PerformanceObserver, constants } from "node:perf_hooks";
    import { settleUiHeap } from ${JSON.stringify(HEAP)};
    const kept = [];
    const keep = async (arrays) => {
      for (let i = 0; i < arrays; i++) {
        kept.push(new Array(40_000).fill(i));
        for (let k = 0; k < 2000; k++) JSON.stringify({ k, list: [k, k + 1] });
        await new Promise((r) => setImmediate(r));
      }
    };
    await keep(4);
    let majors = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
    }).observe({ entryTypes: ["gc"] });
    if (${settle}) settleUiHeap();
    await keep(36);
    await new Promise((r) => setTimeout(r, 100));
    const old = v8.getHeapSpaceStatistics().filter((s) => !s.space_name.startsWith("new"));
    const oldMb = old.reduce((sum, s) => sum + s.space_used_size, 0) / 1e6;
    console.log(JSON.stringify({ majors: majors - (${settle} ? 1 : 0), oldMb, kept: kept.length }));
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { majors: number; oldMb: number };
}

describe("the UI heap after the first frame", () => {
  it("grows through start-up without a major collection once settled (one would arm V8's memory reducer)", () => {
    const settled = majorsWhileGrowing(true);
    expect(settled.oldMb).toBeGreaterThan(12);
    expect(settled.majors).toBe(0);
  });

  it("would collect during that growth without it (the case above is not vacuous)", () => {
    expect(majorsWhileGrowing(false).majors).toBeGreaterThan(0);
  });
});
