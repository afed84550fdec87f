// ConversationMessage -> OpenAI chat.completions. Never `content: null` (many compatible servers
// reject it), and every assistant tool call is answered by a tool message (history.ts).
import type OpenAI from "openai";
import type { ConversationMessage } from "../../protocol/conversation.js";
import type { ToolSpec } from "../../protocol/tool-spec.js";
import { pairToolResults } from "../../protocol/history.js";
import { toolImagesAsUserMessages } from "../tool-images.js";

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function toWire(m: ConversationMessage): WireMessage {
  switch (m.role) {
    case "system":
      return { role: "system", content: m.content };
    case "user":
      if (!m.images?.length) return { role: "user", content: m.content };
      return {
        role: "user",
        content: [
          { type: "text", text: m.content },
          ...m.images.map((i) => ({
            type: "image_url" as const,
            image_url: { url: `data:${i.mimeType};base64,${i.data}` },
          })),
        ],
      };
    case "tool":
      return { role: "tool", tool_call_id: m.toolCallId ?? "", content: m.content };
    case "assistant": {
      const out: OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam = {
        role: "assistant",
        content: m.content ?? "",
      };
      if (m.toolCalls?.length) {
        out.tool_calls = m.toolCalls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: JSON.stringify(c.args) },
        }));
      }
      return out;
    }
  }
}

/** A tool message is text only: a step's tool images follow its results as a user message. */
export const toOpenAIMessages = (conversation: ConversationMessage[]): WireMessage[] =>
  toolImagesAsUserMessages(pairToolResults(conversation)).map(toWire);

export const toOpenAITools = (tools: ToolSpec[]): OpenAI.Chat.Completions.ChatCompletionTool[] =>
  tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
