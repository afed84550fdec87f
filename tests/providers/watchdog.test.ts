import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { Watchdog } from "../../src/providers/watchdog.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test("fires after the given silence, once", () => {
  const onFire = vi.fn();
  const dog = new Watchdog(onFire);
  dog.kick(1000);
  vi.advanceTimersByTime(999);
  expect(onFire).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(onFire).toHaveBeenCalledTimes(1);
  expect(dog.fired).toBe(true);
  dog.kick(1000);
  vi.advanceTimersByTime(5000);
  expect(onFire).toHaveBeenCalledTimes(1);
});

test("each kick restarts the countdown, without a new timer per kick", () => {
  const onFire = vi.fn();
  const dog = new Watchdog(onFire);
  const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
  dog.kick(1000);
  for (let i = 0; i < 1000; i++) {
    vi.advanceTimersByTime(10);
    dog.kick(1000);
  }
  // 10 s of chatter, far longer than the timeout: never fired, and a timer armed ~once a second.
  expect(onFire).not.toHaveBeenCalled();
  expect(setTimeoutSpy.mock.calls.length).toBeLessThanOrEqual(12);
  expect(vi.getTimerCount()).toBe(1);
  vi.advanceTimersByTime(999);
  expect(onFire).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(onFire).toHaveBeenCalledTimes(1);
});

test("a shorter countdown takes effect at once; stop() ends it", () => {
  const onFire = vi.fn();
  const dog = new Watchdog(onFire);
  dog.kick(60_000); // waiting for a model to load
  dog.kick(100); // then the stream's idle limit
  vi.advanceTimersByTime(100);
  expect(onFire).toHaveBeenCalledTimes(1);

  const quiet = vi.fn();
  const stopped = new Watchdog(quiet);
  stopped.kick(100);
  stopped.stop();
  vi.advanceTimersByTime(1000);
  expect(quiet).not.toHaveBeenCalled();
  expect(vi.getTimerCount()).toBe(0);
});
