// ConversationMessage <-> Ollama /api/chat wire. The ollama package's types lack the tool call `id`,
// `function.index` and `tool_call_id` that current servers use, so the wire shapes are declared here.
import type { ConversationMessage, ToolCall } from "../../protocol/conversation.js";
import type { ToolSpec } from "../../protocol/tool-spec.js";
import { newCallId, parseToolArgs } from "../tool-args.js";
import { toolImagesAsUserMessages } from "../tool-images.js";

export interface OllamaWireToolCall {
  id?: string;
  function: { index?: number; name: string; arguments: Record<string, unknown> };
}

export interface OllamaWireMessage {
  role: string;
  content: string;
  thinking?: string;
  tool_calls?: OllamaWireToolCall[];
  tool_name?: string;
  tool_call_id?: string;
  /** Base64, no `data:` prefix. */
  images?: string[];
}

export interface OllamaWireTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export function toOllamaMessage(m: ConversationMessage): OllamaWireMessage {
  const out: OllamaWireMessage = { role: m.role, content: m.content ?? "" };
  if (m.role === "assistant") {
    if (m.thinking) out.thinking = m.thinking;
    if (m.toolCalls?.length) {
      out.tool_calls = m.toolCalls.map((c) => ({ id: c.id, function: { name: c.name, arguments: c.args } }));
    }
  }
  if (m.role === "tool") {
    if (m.toolName !== undefined) out.tool_name = m.toolName;
    if (m.toolCallId !== undefined) out.tool_call_id = m.toolCallId;
  }
  if (m.images?.length) out.images = m.images.map((i) => i.data);
  return out;
}

/**
 * Images of tool results go in a user message after the step's results: Ollama's renderers for
 * vision models (model/renderers/qwen3vl.go) place image tokens for every role's images but render
 * a `tool` message from its text alone, so an image there would reach no prompt.
 */
export const toOllamaMessages = (messages: ConversationMessage[]): OllamaWireMessage[] =>
  toolImagesAsUserMessages(messages).map(toOllamaMessage);

export const toOllamaTools = (tools: ToolSpec[]): OllamaWireTool[] =>
  tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));

/** Servers before 0.12.10 send no id: one is made up so the result can point at its call. */
export function fromOllamaToolCall(call: {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}): ToolCall {
  const id = typeof call.id === "string" && call.id !== "" ? call.id : newCallId();
  // Arguments should be an object; older or odd servers send a JSON string.
  const parsed = parseToolArgs(call.function?.arguments);
  return { id, name: String(call.function?.name ?? ""), args: parsed.ok ? parsed.args : {} };
}
