import type { AgentEvent } from "../protocol/agent-event.js";

/** A batch goes out at least this often while deltas arrive… */
export const BATCH_MS = 16;
/**
 * …or as soon as it holds this many characters. At wire speed a window fills with tens of KB;
 * the cost of a postMessage grows with the bytes and the wake-ups it causes, so a few big
 * messages beat hundreds of 1 KB ones (400 KB: ~110 ms of posting in 392 messages, ~28 in 31).
 */
export const BATCH_CHARS = 16 * 1024;

type Delta = Extract<AgentEvent, { type: "text" | "thinking" }>;

/**
 * Coalesces text and thinking deltas into one message per ≤ 16 ms or per 16 KB before they cross
 * the thread border: a model streams a few characters per chunk, and one postMessage per chunk
 * costs more on both threads (structured clone, a queued Msg, an update) than the text itself.
 * Any other event first sends what is batched, so the order of events is kept.
 */
export function createDeltaBatcher(post: (e: AgentEvent) => void): (e: AgentEvent) => void {
  let batch: Delta | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!batch) return;
    const out = batch;
    batch = undefined;
    post(out);
  };
  return (e) => {
    if (e.type !== "text" && e.type !== "thinking") {
      flush();
      post(e);
      return;
    }
    if (batch && (batch.type !== e.type || batch.runId !== e.runId)) flush();
    if (batch) batch.delta += e.delta;
    else batch = { ...e };
    if (batch.delta.length >= BATCH_CHARS) flush();
    else timer ??= setTimeout(flush, BATCH_MS);
  };
}
