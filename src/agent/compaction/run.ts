import type { RunEvent } from "../../protocol/agent-event.js";
import { hasHooks, runHooks } from "../hooks/hooks.js";
import type { ConversationMessage } from "../../protocol/conversation.js";
import type { RunConfig } from "../../protocol/run-config.js";
import type { Provider } from "../../providers/types.js";
import type { ToolSpec } from "../../protocol/tool-spec.js";
import { applySummary, estimateTextTokens, estimateTokens, planCompaction, summaryPrompt } from "./index.js";

/** What goes into the request beside the conversation, and so counts against the window too. */
export interface RequestOverhead {
  /** The system message as it will be sent (with the JSON protocol's instructions, if any). */
  system?: ConversationMessage;
  /** The tool schemas sent with the request: some 2,000 tokens for the built-in tools. */
  tools?: readonly ToolSpec[];
}

/** The tool schemas as the wire carries them (`{type: "function", function: spec}`), in tokens. */
export function toolSpecTokens(tools: readonly ToolSpec[]): number {
  return tools.length ? estimateTextTokens(JSON.stringify(tools.map((t) => ({ type: "function", function: t })))) : 0;
}

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
  emit: (e: RunEvent) => void,
  force = false,
  overhead: RequestOverhead = {},
): Promise<ConversationMessage[] | undefined> {
  const system: ConversationMessage = overhead.system ?? { role: "system", content: config.systemPrompt };
  const fixed = estimateTokens([system]) + toolSpecTokens(overhead.tools ?? []);
  const before = fixed + estimateTokens(conversation);
  const plan = planCompaction(conversation, {
    contextWindow: config.numCtx,
    systemTokens: fixed,
    force,
  });
  if (plan.action === "none") return undefined;
  // Claude Code's PreCompact hook: told before the conversation is cut ("manual" for /compact).
  if (hasHooks(config, "PreCompact")) {
    const trigger = force ? "manual" : "auto";
    await runHooks(config, "PreCompact", [trigger], { trigger, custom_instructions: "" }, emit, signal);
  }
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
  const after = fixed + estimateTokens(next);
  emit({ type: "compacted", before, after, conversation: next });
  emit({ type: "notice", level: "info", text: `compacted: ${before} → ${after} tokens` });
  return next;
}
