// Images a tool returned, for the wire formats whose tool messages cannot carry one (OpenAI's tool
// message is text only; Ollama renders a tool message from its text): they move to a user message
// right after the step's results, which every chat template and API accepts there.
import type { ConversationMessage } from "../protocol/conversation.js";

/** The text of the user message that carries a step's tool images. */
export function toolImagesNote(toolNames: string[]): string {
  return `The images returned by ${[...new Set(toolNames)].join(", ")}, in order:`;
}

/**
 * The history with each tool message's images moved to one user message after its run of tool
 * messages. Returns `messages` itself when no tool message carries an image.
 */
export function toolImagesAsUserMessages(messages: ConversationMessage[]): ConversationMessage[] {
  if (!messages.some((m) => m.role === "tool" && m.images?.length)) return messages;
  const out: ConversationMessage[] = [];
  let pending: ConversationMessage | undefined;
  let names: string[] = [];
  const flush = () => {
    if (pending) out.push({ ...pending, content: toolImagesNote(names) });
    pending = undefined;
    names = [];
  };
  for (const m of messages) {
    if (m.role !== "tool") flush();
    if (m.role !== "tool" || !m.images?.length) {
      out.push(m);
      continue;
    }
    const { images, ...text } = m;
    out.push(text);
    pending ??= { role: "user", content: "", images: [] };
    pending.images!.push(...images);
    names.push(m.toolName ?? "a tool");
  }
  flush();
  return out;
}
