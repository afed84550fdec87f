// ConversationMessage -> Anthropic Messages API. System prompts go to `system`; tool results are
// user messages of tool_result blocks; empty text blocks are never sent (the API rejects them).
// Thinking goes back only with the signature the API gave it (required before tool_use blocks
// when extended thinking is on).
import type Anthropic from "@anthropic-ai/sdk";
import type { ConversationMessage, ImageAttachment } from "../../protocol/conversation.js";
import type { ToolSpec } from "../../protocol/tool-spec.js";
import { pairToolResults } from "../../protocol/history.js";

export interface AnthropicWire {
  system?: string;
  messages: Anthropic.MessageParam[];
}

export function toAnthropic(conversation: ConversationMessage[]): AnthropicWire {
  const system = conversation
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .filter(Boolean)
    .join("\n\n");
  const messages: Anthropic.MessageParam[] = [];
  let results: Anthropic.ToolResultBlockParam[] | undefined;
  for (const m of pairToolResults(conversation.filter((c) => c.role !== "system"))) {
    if (m.role === "tool") {
      const text = m.content || "(no output)";
      const block: Anthropic.ToolResultBlockParam = {
        type: "tool_result",
        tool_use_id: m.toolCallId ?? "",
        // A tool_result holds image blocks beside its text: the image stays with its call.
        content: m.images?.length ? [{ type: "text", text }, ...m.images.map(imageBlock)] : text,
      };
      if (results) results.push(block);
      else messages.push({ role: "user", content: (results = [block]) });
      continue;
    }
    results = undefined;
    if (m.role === "user") {
      const text = m.content || "(empty message)";
      messages.push({
        role: "user",
        content: m.images?.length ? [...m.images.map(imageBlock), { type: "text", text }] : text,
      });
      continue;
    }
    const blocks: Anthropic.ContentBlockParam[] = [];
    if (m.thinking && m.thinkingSignature)
      blocks.push({ type: "thinking", thinking: m.thinking, signature: m.thinkingSignature });
    if (m.content) blocks.push({ type: "text", text: m.content });
    for (const c of m.toolCalls ?? []) blocks.push({ type: "tool_use", id: c.id, name: c.name, input: c.args });
    if (blocks.length > 0) messages.push({ role: "assistant", content: blocks });
  }
  return system ? { system, messages } : { messages };
}

function imageBlock(image: ImageAttachment): Anthropic.ImageBlockParam {
  return {
    type: "image",
    source: {
      type: "base64",
      media_type: image.mimeType as Anthropic.Base64ImageSource["media_type"],
      data: image.data,
    },
  };
}

export const toAnthropicTools = (tools: ToolSpec[]): Anthropic.Tool[] =>
  tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: { type: "object", ...t.parameters } as Anthropic.Tool.InputSchema,
  }));
