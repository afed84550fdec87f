import type { ConversationMessage } from "../../protocol/conversation.js";

/**
 * A model driven by the JSON reply protocol has no native tool messages: its own calls are
 * shown back to it as the JSON objects it wrote, and tool results as user messages.
 */
export function toJsonProtocolHistory(messages: ConversationMessage[]): ConversationMessage[] {
  return messages.map((m): ConversationMessage => {
    if (m.role === "assistant" && m.toolCalls?.length) {
      const call = m.toolCalls[0]!;
      const thoughts = m.thinking ? [m.thinking] : [];
      return { role: "assistant", content: JSON.stringify({ thoughts, tool_name: call.name, tool_args: call.args }) };
    }
    if (m.role === "assistant") {
      return {
        role: "assistant",
        content: JSON.stringify({ thoughts: [], tool_name: "response", tool_args: { text: m.content } }),
      };
    }
    if (m.role === "tool") {
      const out: ConversationMessage = {
        role: "user",
        content: `Result of ${m.toolName ?? "the tool"}:\n${m.content}`,
      };
      if (m.images) out.images = m.images;
      return out;
    }
    return m.images ? { role: m.role, content: m.content, images: m.images } : { role: m.role, content: m.content };
  });
}
