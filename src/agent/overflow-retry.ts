// A server that refused the prompt as longer than its window (providers/overflow.ts): the
// conversation is compacted to the window the refusal implies and the request goes once more.
import type { RunEvent } from "../protocol/agent-event.js";
import type { ConversationMessage } from "../protocol/conversation.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { Provider, ProviderError } from "../providers/types.js";
import { contextOverflow } from "../providers/overflow.js";
import { compactIfNeeded, type RequestOverhead } from "./compaction/run.js";

export interface OverflowRecovery {
  conversation: ConversationMessage[];
  config: RunConfig;
}

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
  // Ollama's num_ctx stays (changing it reloads the model); elsewhere the window the server named wins.
  const window =
    config.provider !== "ollama" && overflow.window !== undefined && overflow.window < config.numCtx
      ? overflow.window
      : config.numCtx;
  const next = { ...config, numCtx: window };
  const held = window.toLocaleString("en-US");
  emit({
    type: "notice",
    level: "warn",
    text: `The server refused the prompt as longer than its context window (${held} tokens); compacting the conversation and trying once more.`,
  });
  const compacted = await compactIfNeeded(provider, conversation, next, signal, emit, true, overhead);
  return compacted ? { conversation: compacted, config: next } : undefined;
}
