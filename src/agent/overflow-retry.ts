// A server that refused the prompt as longer than its window (providers/overflow.ts): the
// conversation is compacted to the window the refusal implies and the request goes once more.
import type { RunEvent } from "../protocol/agent-event.js";
import type { ConversationMessage } from "../protocol/conversation.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { Provider, ProviderError } from "../providers/types.js";
import { contextOverflow, type ContextOverflow } from "../providers/overflow.js";
import { compactIfNeeded, overheadTokens, type RequestOverhead } from "./compaction/run.js";
import { estimateTokens, newestMessageRefusal } from "./compaction/index.js";

export type OverflowRecovery =
  | { conversation: ConversationMessage[]; config: RunConfig }
  /** The user's newest message alone does not fit the window the refusal implies: nothing to compact. */
  | { refusal: string };

/**
 * The compacted conversation and the config whose window the server really holds, or undefined
 * when the error is no overflow or compaction could not shrink the conversation. The caller
 * retries once: a second overflow ends the run with the error's hint.
 */
export async function recoverFromOverflow(
  error: ProviderError,
  provider: Provider,
  conversation: ConversationMessage[],
  config: RunConfig,
  overhead: RequestOverhead,
  signal: AbortSignal,
  emit: (e: RunEvent) => void,
): Promise<OverflowRecovery | undefined> {
  const overflow = contextOverflow(error.message);
  if (!overflow) return undefined;
  const fixed = overheadTokens(overhead);
  const window = refusedWindow(overflow, config, fixed + estimateTokens(conversation));
  // (the refusal check below uses the server's window: the newest message's figures are the user's)
  const next: RunConfig = { ...config, numCtx: window };
  delete next.windowUnknown;
  const refusal = newestMessageRefusal(conversation, window, fixed);
  if (refusal) return { refusal };
  const held = window.toLocaleString("en-US");
  emit({
    type: "notice",
    level: "warn",
    text: `The server refused the prompt as longer than its context window (${held} tokens); compacting the conversation and trying once more.`,
  });
  // Compaction counts with agent0's estimate; a server that said how much it counted gives the
  // window in those units too (it counts more than the estimate when its tokenizer is tighter).
  const estimate = fixed + estimateTokens(conversation);
  const scale = overflow.sent && overflow.sent > estimate ? estimate / overflow.sent : 1;
  const counted = Math.floor(window * scale);
  const compacted = await compactIfNeeded(provider, conversation, next, signal, emit, {
    trigger: "auto",
    force: true,
    overhead,
    estimatedWindow: counted,
  });
  return compacted ? { conversation: compacted, config: next } : undefined;
}

/**
 * The window a refusal implies. Ollama's num_ctx stays (changing it reloads the model); elsewhere
 * the window the server named wins. A server that named none while the window was unknown holds
 * less than was sent: the largest power of two below it (windows are set so).
 */
function refusedWindow(overflow: ContextOverflow, config: RunConfig, sentEstimate: number): number {
  if (config.provider === "ollama") return config.numCtx;
  if (overflow.window !== undefined && (config.windowUnknown || overflow.window < config.numCtx))
    return overflow.window;
  if (!config.windowUnknown) return config.numCtx;
  const sent = overflow.sent ?? sentEstimate;
  return 2 ** Math.max(10, Math.floor(Math.log2(Math.max(1, sent - 1))));
}
