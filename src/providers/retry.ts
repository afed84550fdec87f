// Retries with exponential backoff for the hosted providers. Their SDKs are built with maxRetries: 0
// so that every wait is ours and shows up as a notice the user can read.
import type { ProviderError, ProviderEvent } from "./types.js";

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** First wait; doubles each time. A server's retry-after wins when given. */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 4, baseDelayMs: 2000 };
/** A retry-after longer than this is not waited for. */
const MAX_WAIT_MS = 60_000;

/** What one attempt yields: a failure that may be retried carries its reason for the notice. */
export type AttemptEvent =
  ProviderEvent | { type: "retryable-error"; error: ProviderError; reason: string; retryAfterMs?: number };

export function formatWait(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))}s` : `${ms}ms`;
}

/** Parses retry-after (seconds or an HTTP date) and retry-after-ms. */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.get("retry-after-ms") && Number.isFinite(ms)) return ms;
  const value = headers.get("retry-after");
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return secs * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs attempts until one ends without a retryable failure. A failure after text or a tool call was
 * already yielded is not retried (the user has seen half an answer); it ends the stream as an error.
 */
export async function* withRetries(
  attempt: () => AsyncIterable<AttemptEvent>,
  signal: AbortSignal,
  policy: RetryPolicy,
): AsyncGenerator<ProviderEvent> {
  for (let n = 1; ; n++) {
    let produced = false;
    let retry: Extract<AttemptEvent, { type: "retryable-error" }> | undefined;
    for await (const event of attempt()) {
      if (event.type === "retryable-error") {
        if (!produced && n <= policy.retries && !signal.aborted) retry = event;
        else yield { type: "error", error: event.error };
        break;
      }
      if (event.type === "tool-call" || ((event.type === "text" || event.type === "thinking") && event.delta !== ""))
        produced = true;
      yield event;
    }
    if (!retry) return;
    const wait = Math.min(retry.retryAfterMs ?? policy.baseDelayMs * 2 ** (n - 1), MAX_WAIT_MS);
    yield { type: "notice", text: `${retry.reason}; retrying in ${formatWait(wait)} (attempt ${n}/${policy.retries})` };
    if (!(await sleep(wait, signal))) {
      yield { type: "error", error: { kind: "aborted", message: "The request was stopped." } };
      return;
    }
  }
}
