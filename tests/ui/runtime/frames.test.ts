import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { createFrameScheduler } from "../../../src/ui/runtime/frames.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function scheduler() {
  const state = { pending: false, starts: 0, ticks: 0 };
  const frames = createFrameScheduler({
    intervalMs: 100,
    pending: () => state.pending,
    onStart: () => state.starts++,
    onTick: () => state.ticks++,
  });
  return { state, frames };
}

test("no timer runs while nothing is pending", () => {
  const { state, frames } = scheduler();
  frames.wake();
  vi.advanceTimersByTime(10_000);
  expect(vi.getTimerCount()).toBe(0);
  expect(state).toMatchObject({ starts: 0, ticks: 0 });
});

test("the tick runs while something is pending and stops after the first tick that finds nothing", () => {
  const { state, frames } = scheduler();
  state.pending = true;
  frames.wake();
  frames.wake(); // a second wake does not start a second timer
  expect(vi.getTimerCount()).toBe(1);
  vi.advanceTimersByTime(350);
  expect(state).toMatchObject({ starts: 1, ticks: 3 });
  state.pending = false;
  vi.advanceTimersByTime(100);
  expect(frames.ticking()).toBe(false);
  expect(vi.getTimerCount()).toBe(0);
  vi.advanceTimersByTime(10_000);
  expect(state.ticks).toBe(4);
});

test("stop() ends the tick for good", () => {
  const { state, frames } = scheduler();
  state.pending = true;
  frames.wake();
  frames.stop();
  frames.wake();
  expect(vi.getTimerCount()).toBe(0);
});
