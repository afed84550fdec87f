// A full collection on a worker's own word. Workers run without V8's memory reducer
// (ui/runtime/heap.ts), so a worker that has just finished something collects then.
import v8 from "node:v8";
import vm from "node:vm";

/**
 * A full collection once a run (or the TUI's start-up probe) has ended, or the file index has
 * listed the project (search/index-worker.ts). V8 grows an idle worker's
 * heap instead of collecting it, and the worker's heap has no memory reducer (ui/runtime/heap.ts),
 * so without this a long session's garbage would pile up as resident memory (bench: longSession).
 * The worker is idle then, so the few milliseconds are not felt.
 */
export function collectGarbage(): void {
  gc ??= (() => {
    try {
      v8.setFlagsFromString("--expose-gc");
      return vm.runInNewContext("gc") as () => void;
    } catch {
      return () => {};
    }
  })();
  gc();
}
/** A cache: V8's gc function, made at the first collection (a new context costs a few ms a one-shot never needs). */
let gc: (() => void) | undefined;
