// Token estimates both threads share: the worker sizes requests and compaction with them, the UI's
// /context shows the same figures. A cheap rule (characters / 4), corrected by what a server
// reports for the request it read.
import type { ConversationMessage } from "./conversation.js";

/** Tokens a message costs beyond its text (role markers of the chat template). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
const CHARS_PER_TOKEN = 4;
/** What one image costs a vision model: Ollama counts 768 tokens per image (server/prompt.go). */
export const IMAGE_TOKENS = 768;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The characters that make about `tokens` tokens (the inverse of estimateTextTokens). */
export function charsForTokens(tokens: number): number {
  return Math.max(0, Math.floor(tokens * CHARS_PER_TOKEN));
}

/**
 * A cheap estimate: characters / 4 plus a per-message overhead. Tool calls count as their
 * JSON; `thinking` does not count, since chat templates drop it from earlier turns; an image
 * counts IMAGE_TOKENS, not its base64.
 */
export function estimateTokens(messages: readonly ConversationMessage[]): number {
  let total = 0;
  for (const m of messages) {
    const calls = m.toolCalls?.length ? JSON.stringify(m.toolCalls.map((c) => ({ name: c.name, args: c.args }))) : "";
    total += MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(m.content) + estimateTextTokens(calls);
    total += (m.images?.length ?? 0) * IMAGE_TOKENS;
  }
  return total;
}
