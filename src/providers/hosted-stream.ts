// The part of stream() that the hosted providers share: our AbortController linked to the caller's
// signal, the idle watchdog, retries, and the closing error when the stream was cut short.
import { withRetries, type AttemptEvent, type RetryPolicy } from "./retry.js";
import type { ChatRequest, ProviderEvent } from "./types.js";
import { Watchdog } from "./watchdog.js";

/** One attempt. It kicks the watchdog on every server event and stops it when it ends. */
export type Attempt = (signal: AbortSignal, watchdog: Watchdog) => AsyncIterable<AttemptEvent>;

export async function* hostedStream(
  req: ChatRequest,
  label: string,
  policy: RetryPolicy,
  attempt: Attempt,
): AsyncGenerator<ProviderEvent> {
  const controller = new AbortController();
  const forward = () => controller.abort();
  req.signal.addEventListener("abort", forward, { once: true });
  if (req.signal.aborted) controller.abort();
  const watchdog = new Watchdog(() => controller.abort());
  let ended = false;
  try {
    for await (const event of withRetries(() => attempt(controller.signal, watchdog), controller.signal, policy)) {
      ended ||= event.type === "done" || event.type === "error";
      yield event;
    }
    if (!ended) {
      yield watchdog.fired
        ? {
            type: "error",
            error: {
              kind: "timeout",
              message: `${label} sent nothing for ${Math.round(req.idleTimeoutMs / 1000)} s, so the request was stopped.`,
              hint: "Try again.",
            },
          }
        : { type: "error", error: { kind: "aborted", message: "The request was stopped." } };
    }
  } finally {
    // Leaving early (break) must close the connection too.
    watchdog.stop();
    req.signal.removeEventListener("abort", forward);
    controller.abort();
  }
}
