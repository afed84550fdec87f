/**
 * The frame scheduler: when the screen is painted. Keys paint at once (the loop calls paint()
 * after them); agent events queue up and are drained on the tick, with one paint per tick. The
 * tick runs only while something is pending (a run, a model load, queued events): an idle TUI
 * sets no timer at all, so it costs no CPU and no wake-ups.
 */
export interface FrameScheduler {
  /** Something may be pending now: starts the tick unless it runs (or nothing is). */
  wake(): void;
  /** Whether the tick runs (when it does not, the clock the view shows stands still). */
  ticking(): boolean;
  /** A new tick interval; takes effect at once. */
  setInterval(ms: number): void;
  stop(): void;
}

export interface FrameSchedulerOptions {
  intervalMs: number;
  /** A run, a model load or queued events: the tick keeps running while this holds. */
  pending(): boolean;
  /** Called when the tick starts, before the first interval (brings the clock up to date). */
  onStart(): void;
  /** One tick: drain what queued up, advance the clock, paint. */
  onTick(): void;
}

export function createFrameScheduler(opts: FrameSchedulerOptions): FrameScheduler {
  let interval = opts.intervalMs;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const clear = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const tick = () => {
    opts.onTick();
    if (!opts.pending()) clear();
  };
  const wake = () => {
    if (timer || stopped || !opts.pending()) return;
    opts.onStart();
    timer = setInterval(tick, interval);
  };
  return {
    wake,
    ticking: () => timer !== undefined,
    setInterval(ms) {
      interval = ms;
      if (!timer) return;
      clear();
      wake();
    },
    stop() {
      stopped = true;
      clear();
    },
  };
}
