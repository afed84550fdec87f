// ConversationMessage <-> Ollama /api/chat wire. The ollama package's types lack the tool call `id`,
// `function.index` and `tool_call_id` that current servers use, so the wire shapes are declared here.
import { randomBytes } from "node:crypto";
import type { ConversationMessage, ToolCall } from "../../protocol/conversation.js";
import type { ToolSpec } from "../../tools/types.js";

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
  return out;
}

export const toOllamaMessages = (messages: ConversationMessage[]): OllamaWireMessage[] => messages.map(toOllamaMessage);

export const toOllamaTools = (tools: ToolSpec[]): OllamaWireTool[] =>
  tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));

export function newCallId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return "call_" + [...randomBytes(8)].map((b) => alphabet[b % alphabet.length]).join("");
}

/** Arguments should be an object; older or odd servers may send a JSON string. */
function toArgs(value: unknown): Record<string, unknown> {
  if (typeof value === "string") {
    try {
      return toArgs(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Servers before 0.12.10 send no id: one is made up so the result can point at its call. */
export function fromOllamaToolCall(call: {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}): ToolCall {
  const id = typeof call.id === "string" && call.id !== "" ? call.id : newCallId();
  return { id, name: String(call.function?.name ?? ""), args: toArgs(call.function?.arguments) };
}
