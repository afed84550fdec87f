// Token figures kept on saved messages: the status line rebuilds its context meter and the
// session's total from a conversation (on resume, after /undo) with these.
import type { ConversationMessage, MessageUsage } from "./conversation.js";

/** The tokens of the request that produced a message (0 when not recorded or malformed). */
export function tokensOf(message: ConversationMessage): number {
  const u = message.usage;
  return u && Number.isFinite(u.promptTokens) && Number.isFinite(u.completionTokens)
    ? u.promptTokens + u.completionTokens
    : 0;
}

/** The context the last answered request used: its prompt and its answer. */
export function lastUsage(conversation: readonly ConversationMessage[]): MessageUsage {
  for (let i = conversation.length - 1; i >= 0; i--) {
    const m = conversation[i]!;
    if (tokensOf(m) > 0) return { promptTokens: m.usage!.promptTokens, completionTokens: m.usage!.completionTokens };
  }
  return { promptTokens: 0, completionTokens: 0 };
}
