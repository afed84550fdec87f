/**
 * Aborts a request when it stays silent too long. `kick(ms)` restarts the countdown.
 *
 * A stream kicks it on every network chunk (per token with Ollama), so a kick only moves the
 * deadline; the one timer, when it fires early, waits out the rest. Clearing and setting a timer
 * per chunk cost ~70 ms of a 400 KB answer's ~500 ms in the worker.
 */
export class Watchdog {
  private timer: NodeJS.Timeout | undefined;
  /** When the countdown ends and when the timer fires (nowMs). */
  private deadline = 0;
  private firesAt = 0;
  fired = false;

  constructor(private readonly onFire: () => void) {}

  kick(ms: number): void {
    if (this.fired) return;
    if (!(ms > 0) || !Number.isFinite(ms)) {
      this.stop();
      return;
    }
    const now = nowMs();
    this.deadline = now + ms;
    // A timer that fires before the new deadline re-arms itself for the rest then.
    if (this.timer && this.firesAt <= this.deadline) return;
    clearTimeout(this.timer);
    this.arm(now, ms);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(now: number, ms: number): void {
    this.firesAt = now + ms;
    this.timer = setTimeout(() => this.check(), ms);
  }

  private check(): void {
    this.timer = undefined;
    const now = nowMs();
    if (now < this.deadline) {
      this.arm(now, this.deadline - now);
      return;
    }
    this.fired = true;
    this.onFire();
  }
}

/**
 * Milliseconds on a monotonic clock. Not performance.now(): its first use loads node's
 * perf_hooks, ~0.5 ms of a one-shot that has no other use for them.
 */
function nowMs(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}
