import type { ConversationMessage } from "../../src/protocol/conversation.js";
import type { ChatRequest, ProviderEvent } from "../../src/providers/types.js";
import type { ToolSpec } from "../../src/protocol/tool-spec.js";

export const readFileTool: ToolSpec = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

export function chatRequest(over: Partial<ChatRequest> = {}): ChatRequest {
  const messages: ConversationMessage[] = [
    { role: "system", content: "You are a test." },
    { role: "user", content: "hi" },
  ];
  return {
    model: "qwen3:8b",
    messages,
    tools: [],
    numCtx: 8192,
    signal: new AbortController().signal,
    idleTimeoutMs: 10_000,
    ...over,
  };
}

export async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

export const textOf = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");

export const thinkingOf = (events: ProviderEvent[]) =>
  events.flatMap((e) => (e.type === "thinking" ? [e.delta] : [])).join("");

export const errorOf = (events: ProviderEvent[]) => {
  const last = events.at(-1);
  return last?.type === "error" ? last.error : undefined;
};

export const callsOf = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === "tool-call" ? [e.call] : []));
