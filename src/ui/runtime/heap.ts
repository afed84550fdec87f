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

/**
 * One full collection of the UI heap right after the first frame, while it holds ~5 MB, sized to
 * let start-up grow it ~7-fold before the next one. Start-up then ends without a major
 * collection; with one (it came at ~16 MB, ~0.4 s in) the reducer would collect the whole heap
 * again ~8 s later, when the app has gone idle. A heap under 10 MB does not arm the reducer, and
 * it arms at the first 1 MB of growth unless told not to. The cost: ~5 ms before blessed takes
 * over, and start-up's garbage stays until the session's own work calls for a collection.
 */
export function settleUiHeap(): void {
  v8.setFlagsFromString("--no-memory-reducer-for-small-heaps");
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
