// Hosted and OpenAI-compatible APIs reject a history where a tool call has no result, or a result has
// no call (an interrupt between the two leaves such a history behind). This repairs it before sending.
import type { ConversationMessage } from "../protocol/conversation.js";

export const MISSING_RESULT = "(no result)";

/**
 * Every assistant tool call is followed, before the next non-tool message, by a tool message that
 * answers it: missing ones are inserted as "(no result)". A tool message that answers no call is
 * kept as a user message so its text is not lost.
 */
export function pairToolResults(messages: ConversationMessage[]): ConversationMessage[] {
  const out: ConversationMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "tool") {
      out.push({ role: "user", content: `Tool result${m.toolName ? ` (${m.toolName})` : ""}:\n${m.content}` });
      continue;
    }
    out.push(m);
    if (m.role !== "assistant" || !m.toolCalls?.length) continue;
    const results: ConversationMessage[] = [];
    while (i + 1 < messages.length && messages[i + 1].role === "tool") results.push(messages[++i]);
    const ids = new Set(m.toolCalls.map((c) => c.id));
    for (const call of m.toolCalls) {
      const found = results.find((r) => r.toolCallId === call.id);
      out.push(found ?? { role: "tool", content: MISSING_RESULT, toolCallId: call.id, toolName: call.name });
    }
    for (const r of results) {
      if (!r.toolCallId || !ids.has(r.toolCallId))
        out.push({ role: "user", content: `Tool result${r.toolName ? ` (${r.toolName})` : ""}:\n${r.content}` });
    }
  }
  return out;
}
