import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { BATCH_CHARS, BATCH_MS, createDeltaBatcher } from "../../src/agent/delta-batcher.js";
import type { AgentEvent } from "../../src/protocol/agent-event.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const text = (delta: string, runId = 1): AgentEvent => ({ type: "text", delta, runId });

test("deltas within one window go out as one message, after at most the window", () => {
  const out: AgentEvent[] = [];
  const emit = createDeltaBatcher((e) => out.push(e));
  for (const d of ["Hel", "lo", " wor", "ld"]) emit(text(d));
  expect(out).toEqual([]);
  vi.advanceTimersByTime(BATCH_MS);
  expect(out).toEqual([text("Hello world")]);
  expect(vi.getTimerCount()).toBe(0);
});

test("a batch that reaches the size limit goes out at once", () => {
  const out: AgentEvent[] = [];
  const emit = createDeltaBatcher((e) => out.push(e));
  const chunk = "x".repeat(BATCH_CHARS / 4);
  for (let i = 0; i < 4; i++) emit(text(chunk));
  expect(out).toEqual([text(chunk.repeat(4))]);
});

test("any other event sends the batch first, so the order is kept; kinds and runs never mix", () => {
  const out: AgentEvent[] = [];
  const emit = createDeltaBatcher((e) => out.push(e));
  emit({ type: "thinking", delta: "hm", runId: 1 });
  emit(text("a"));
  emit(text("b"));
  emit(text("c", 2));
  emit({ type: "done", reason: "complete", runId: 2 });
  expect(out).toEqual([
    { type: "thinking", delta: "hm", runId: 1 },
    text("ab"),
    text("c", 2),
    { type: "done", reason: "complete", runId: 2 },
  ]);
  expect(vi.getTimerCount()).toBe(0);
});
