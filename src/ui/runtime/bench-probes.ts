import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { processState } from "./process-state.js";

/**
 * What `npm run bench` reads from a running TUI: one JSON line per mark in $AGENT0_BENCH_FILE
 * (`at` is ms since the process started). Without that variable every probe does nothing.
 */
export interface BenchProbes {
  /** A key arrived (its echo is timed to the next paint). */
  key(): void;
  /** A paint is starting; returns the function to call when it is done. */
  paint(): (state: { entries: number; running: boolean }) => void;
  mark(event: string, data?: Record<string, number | string>): void;
}

const noop = () => {};

/** One mark; "first-paint" is marked once per process (by the boot screen or the first paint). */
export function markBench(event: string, data: Record<string, number | string> = {}): void {
  const file = process.env.AGENT0_BENCH_FILE;
  if (!file) return;
  if (event === "first-paint") {
    if (processState().firstPainted) return;
    processState().firstPainted = true;
  }
  appendFileSync(file, JSON.stringify({ event, at: performance.now(), ...data }) + "\n");
}

export function createBenchProbes(file = process.env.AGENT0_BENCH_FILE): BenchProbes {
  if (!file) return { key: noop, paint: () => noop, mark: noop };
  const mark = markBench;
  let keyAt: number | undefined;
  let sawRun = false;
  return {
    mark,
    key: () => (keyAt = performance.now()),
    paint() {
      const started = performance.now();
      return ({ entries, running }) => {
        const end = performance.now();
        mark("first-paint");
        mark("paint", { ms: end - started, entries, running: running ? 1 : 0 });
        if (keyAt !== undefined) mark("key-to-paint", { ms: end - keyAt, running: running ? 1 : 0 });
        keyAt = undefined;
        if (running) sawRun = true;
        else if (sawRun) {
          sawRun = false;
          mark("run-painted");
        }
      };
    },
  };
}
