import v8 from "node:v8";
import vm from "node:vm";

/**
 * How the app's two V8 heaps are collected so that an idle app does no work. V8's memory reducer
 * collects a heap ~8 s after its last major collection, once the app has gone quiet, then again
 * 0.5 s later: two to three full collections of each heap in an app nobody uses (bench: idle).
 */

/**
 * The worker knows when it has finished something and collects its own garbage then (worker.ts:
 * after the start-up probe and after each run), so its heap runs without the reducer. V8 reads
 * that flag when a heap is created: it reaches the workers started from here on and leaves the
 * UI thread's heap its reducer, which is told to collect once, not again and again (the second
 * collection freed ~0.1 MB of 17 MB).
 */
export function quietHeaps(): void {
  v8.setFlagsFromString("--no-memory-reducer");
  v8.setFlagsFromString("--memory-reducer-single-gc");
}

/** Committed bytes of the heap outside the young generation: what V8's memory reducer measures. */
function oldGenerationBytes(): number {
  const spaces = v8.getHeapSpaceStatistics().filter((s) => !s.space_name.startsWith("new"));
  return spaces.reduce((sum, s) => sum + s.space_size, 0);
}

/**
 * One full collection of the UI heap right after the first frame, while it holds ~5 MB, sized to
 * let start-up grow it ~7-fold before the next one. Start-up then ends without a major
 * collection; with one (it came at ~16 MB, ~0.4 s in) the reducer would collect the whole heap
 * again ~8 s later, when the app has gone idle. A collection under 10 MB does not arm the
 * reducer (above that this one would, so it is skipped), and bin/agent0.js keeps the heap's
 * first growth from arming it. The cost: ~5 ms before blessed takes over, and start-up's garbage
 * stays until the session's own work calls for a collection.
 */
export function settleUiHeap(): void {
  if (oldGenerationBytes() > 9e6) return;
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  v8.setFlagsFromString("--no-expose-gc");
  v8.setFlagsFromString("--heap-growing-percent=600");
  try {
    gc();
  } finally {
    v8.setFlagsFromString("--heap-growing-percent=0");
  }
}
