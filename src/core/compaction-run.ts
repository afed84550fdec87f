import type { AgentEvent, ConversationMessage, RunConfig } from "./events.js";
import type { Provider } from "./providers/types.js";
import { applySummary, estimateTokens, planCompaction, summaryPrompt } from "./compaction.js";

/**
 * Keeps the prompt inside the context window before a model call (issue 6): snip old tool
 * output first, then summarize the older part with the model. Returns the new conversation,
 * or undefined when nothing changed.
 */
export async function compactIfNeeded(
  provider: Provider,
  conversation: ConversationMessage[],
  config: RunConfig,
  signal: AbortSignal,
  emit: (e: AgentEvent) => void,
  force = false,
): Promise<ConversationMessage[] | undefined> {
  const system: ConversationMessage = { role: "system", content: config.systemPrompt };
  const before = estimateTokens([system, ...conversation]);
  const plan = planCompaction(conversation, {
    contextWindow: config.numCtx,
    systemTokens: estimateTokens([system]),
    force,
  });
  if (plan.action === "none") return undefined;
  let next: ConversationMessage[];
  if (plan.action === "snip") {
    next = plan.messages;
  } else {
    let summary = "";
    for await (const ev of provider.stream({
      model: config.model,
      messages: summaryPrompt(plan.head),
      tools: [],
      numCtx: config.numCtx,
      keepAlive: config.keepAlive,
      signal,
      idleTimeoutMs: config.idleTimeoutMs,
    })) {
      if (ev.type === "text") summary += ev.delta;
      if (ev.type === "error") {
        emit({ type: "notice", level: "warn", text: `Could not summarize the conversation: ${ev.error.message}` });
        return undefined;
      }
    }
    next = applySummary(undefined, summary.trim(), plan.tail);
  }
  const after = estimateTokens([system, ...next]);
  emit({ type: "compacted", before, after, conversation: next });
  emit({ type: "notice", level: "info", text: `compacted: ${before} → ${after} tokens` });
  return next;
}
