import { estimateTokens } from "../../src/protocol/tokens.js";
import { toolSpecTokens } from "../../src/agent/compaction/run.js";
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
  /** `contextLength: null`: a server that does not say its window. */
  info: { contextLength?: number | null; configuredWindow?: number; capabilities?: string[] } = {},
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
      // By default the server read the whole request, as agent0 estimates it.
      const whole = estimateTokens(req.messages) + toolSpecTokens(req.tools);
      yield { type: "done", promptTokens: reply.promptTokens ?? whole, completionTokens: 5 };
    },
    async listModels() {
      return [{ name: "test-model", capabilities: info.capabilities ?? ["tools"] }];
    },
    async modelInfo(model) {
      return {
        name: model,
        ...(info.contextLength === null ? {} : { contextLength: info.contextLength ?? 8192 }),
        ...(info.configuredWindow ? { configuredWindow: info.configuredWindow } : {}),
        capabilities: info.capabilities ?? ["tools"],
      };
    },
  };
}
