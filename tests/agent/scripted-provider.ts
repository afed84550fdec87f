import type { ChatRequest, Provider, ProviderErrorKind, ProviderEvent } from "../../src/providers/types.js";

/** One scripted model reply: text and/or tool calls with fixed ids, or an error. */
export type Reply = {
  text?: string;
  thinking?: string;
  calls?: { id: string; name: string; args: Record<string, unknown> }[];
  error?: string;
  errorKind?: ProviderErrorKind;
  promptTokens?: number;
};

/**
 * A model in memory: answers requests from one queue, in order, whichever agent asks — a parent
 * and its sub-agents take turns, so the order of replies is the order of the run.
 */
export function scriptedProvider(
  replies: Reply[],
  info: { contextLength?: number; capabilities?: string[] } = {},
): Provider & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    name: "scripted",
    requests,
    async *stream(req): AsyncIterable<ProviderEvent> {
      requests.push(structuredClone({ ...req, signal: undefined }) as unknown as ChatRequest);
      const reply = replies.shift();
      if (!reply) throw new Error(`no scripted reply left for request ${requests.length}`);
      if (reply.error) {
        yield { type: "error", error: { kind: reply.errorKind ?? "server", message: reply.error } };
        return;
      }
      if (reply.thinking) yield { type: "thinking", delta: reply.thinking };
      if (reply.text) yield { type: "text", delta: reply.text };
      for (const call of reply.calls ?? []) yield { type: "tool-call", call };
      yield { type: "done", promptTokens: reply.promptTokens ?? 10, completionTokens: 5 };
    },
    async listModels() {
      return [{ name: "test-model", capabilities: info.capabilities ?? ["tools"] }];
    },
    async modelInfo(model) {
      return { name: model, contextLength: info.contextLength ?? 8192, capabilities: info.capabilities ?? ["tools"] };
    },
  };
}
