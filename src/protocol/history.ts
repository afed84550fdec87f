// A history where every tool call is directly followed by its result — the shape every provider
// accepts (Anthropic and OpenAI reject a call without a result, or a result without a call). A
// crash mid-step, an interrupt, or a result appended late by the UI after a resumed run must not
// make the next request malformed. One rule for loading a session, the loop and every provider.
import type { ConversationMessage, ToolCall } from "../protocol/conversation.js";

export const NOT_RUN = "Not run: the run was stopped before this tool finished.";

/**
 * The conversation as the model should see it: each assistant message's tool results right after
 * it, in call order; a call that never got a result gets a "Not run" one; a result that answers no
 * call is kept as user text, so nothing it said is lost. Returns `messages` itself when it
 * already has that shape.
 */
export function pairToolResults(messages: ConversationMessage[]): ConversationMessage[] {
  if (isPaired(messages)) return messages;
  const out: ConversationMessage[] = [];
  // Call id -> the slots in `out` still waiting for that id's result, oldest first
  // (a model may give two calls of one step the same id; they are answered in order).
  const waiting = new Map<string, number[]>();
  for (const m of messages) {
    if (m.role === "tool" && m.toolCallId !== undefined) {
      const slot = waiting.get(m.toolCallId)?.shift();
      if (slot !== undefined) out[slot] = m;
      else out.push(orphanResult(m));
      continue;
    }
    if (m.role === "tool") {
      out.push(orphanResult(m));
      continue;
    }
    out.push(m);
    if (m.role !== "assistant") continue;
    for (const call of m.toolCalls ?? []) {
      const slots = waiting.get(call.id) ?? [];
      slots.push(out.length);
      waiting.set(call.id, slots);
      out.push(notRun(call));
    }
  }
  return out;
}

function notRun(call: ToolCall): ConversationMessage {
  return { role: "tool", content: NOT_RUN, toolCallId: call.id, toolName: call.name };
}

function orphanResult(m: ConversationMessage): ConversationMessage {
  return { role: "user", content: `Tool result${m.toolName ? ` (${m.toolName})` : ""}:\n${m.content}` };
}

function isPaired(messages: ConversationMessage[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    if (messages[i]!.role === "tool") return false;
    const calls = messages[i]!.role === "assistant" ? (messages[i]!.toolCalls ?? []) : [];
    for (let k = 0; k < calls.length; k++) {
      const result = messages[i + 1 + k];
      if (result?.role !== "tool" || result.toolCallId !== calls[k]!.id) return false;
    }
    i += calls.length;
  }
  return true;
}
