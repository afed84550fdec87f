/** Aborts a request when it stays silent too long. `kick(ms)` restarts the countdown. */
export class Watchdog {
  private timer: NodeJS.Timeout | undefined;
  fired = false;

  constructor(private readonly onFire: () => void) {}

  kick(ms: number): void {
    if (this.fired) return;
    clearTimeout(this.timer);
    if (!(ms > 0) || !Number.isFinite(ms)) return;
    this.timer = setTimeout(() => {
      this.fired = true;
      this.onFire();
    }, ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
