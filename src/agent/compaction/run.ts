import type { RunEvent } from "../../protocol/agent-event.js";
import { hasHooks, runHooks } from "../hooks/hooks.js";
import type { ConversationMessage } from "../../protocol/conversation.js";
import type { RunConfig } from "../../protocol/run-config.js";
import type { Provider } from "../../providers/types.js";
import type { ToolSpec } from "../../protocol/tool-spec.js";
import { wireMessages, wireToolSpecs } from "../request.js";
import {
  applySummary,
  estimateTextTokens,
  estimateTokens,
  planCompaction,
  summaryAllowance,
  summaryPrompt,
  type CutCount,
} from "./index.js";
import { IN_PLACE_INSTRUCTIONS } from "./summary.js";
import { charsForTokens } from "../../protocol/tokens.js";
import { contextOverflow } from "../../providers/overflow.js";

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

/** What the system message and the tool schemas of a request cost, in tokens. */
export function overheadTokens(overhead: RequestOverhead): number {
  return estimateTokens(overhead.system ? [overhead.system] : []) + toolSpecTokens(overhead.tools ?? []);
}

/** Why a compaction runs, and what the request around it costs. */
export interface CompactionRequest {
  /**
   * Claude Code's PreCompact trigger: "manual" for /compact; "auto" when the window fills or a
   * server refuses the prompt as too long.
   */
  trigger: "manual" | "auto";
  /** Cut even under COMPACT_AT, and with a window nobody reported: /compact, or a server's refusal. */
  force?: boolean;
  /** The system message and tool schemas the next request carries (default: config's prompt, no tools). */
  overhead?: RequestOverhead;
  /**
   * The window to cut for, in agent0's estimate, when the server counts more tokens than the
   * estimate does (a refusal said how many): the requests still name the real one, config.numCtx —
   * another num_ctx would make a local engine load the model again, at a window the prompt misses.
   */
  estimatedWindow?: number;
}

/**
 * Keeps the prompt inside the context window before a model call (issue 25): at COMPACT_AT of the
 * window, old tool output is snipped or the older part summarized, down to COMPACT_TO. Returns the
 * new conversation, or undefined when nothing changed.
 */
export async function compactIfNeeded(
  provider: Provider,
  conversation: ConversationMessage[],
  config: RunConfig,
  signal: AbortSignal,
  emit: (e: RunEvent) => void,
  { trigger, force = false, overhead = {}, estimatedWindow = config.numCtx }: CompactionRequest,
): Promise<ConversationMessage[] | undefined> {
  // A window nobody reported is not cut to: the reply's counts or a refusal will tell it.
  if (config.windowUnknown && !force) return undefined;
  const system: ConversationMessage = overhead.system ?? { role: "system", content: config.systemPrompt };
  const fixed = overheadTokens({ ...overhead, system });
  const before = fixed + estimateTokens(conversation);
  const plan = planCompaction(conversation, { contextWindow: estimatedWindow, systemTokens: fixed, force });
  if (plan.action === "none") return undefined;
  // Claude Code's PreCompact hook: told before the conversation is cut, and why.
  if (hasHooks(config, "PreCompact")) {
    await runHooks(config, "PreCompact", [trigger], { trigger, custom_instructions: "" }, emit, signal);
  }
  let next: ConversationMessage[];
  if (plan.action === "snip") {
    next = plan.messages;
  } else {
    const summary = await summarize(provider, conversation, plan.head, config, signal, {
      system,
      before,
      overhead,
      window: estimatedWindow,
    });
    if (!summary.ok) {
      emit({ type: "notice", level: "warn", text: `Could not summarize the conversation: ${summary.message}` });
      return undefined;
    }
    next = applySummary(undefined, summary.text, plan.tail);
  }
  const after = fixed + estimateTokens(next);
  // The share in the estimate's units, of the window the server holds.
  const share =
    estimatedWindow > 0
      ? ` (${Math.round((after / estimatedWindow) * 100)}% of the ${config.numCtx}-token window)`
      : "";
  const cut = cutNote(plan.cut);
  emit({ type: "compacted", before, after, conversation: next });
  emit({ type: "notice", level: "info", text: `compacted: ${before} → ${after} tokens${share}${cut}` });
  return next;
}

/**
 * Asks the model for the summary. When the request still fits the window, it is the conversation
 * as the next request would send it plus one instruction at the end: a local server reuses the
 * whole cached prompt and reads only the instruction. Otherwise (the prompt is already over the
 * window) a separate request carries the older part as a transcript sized to fit.
 */
async function summarize(
  provider: Provider,
  conversation: ConversationMessage[],
  head: ConversationMessage[],
  config: RunConfig,
  signal: AbortSignal,
  req: { system: ConversationMessage; before: number; overhead: RequestOverhead; window: number },
): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  const window = req.window;
  const allowance = summaryAllowance(window);
  const instruction: ConversationMessage = { role: "user", content: IN_PLACE_INSTRUCTIONS(allowance) };
  const inPlace = config.toolProtocol !== "json" && req.before + estimateTokens([instruction]) + allowance <= window;
  if (inPlace) {
    const messages = [...wireMessages([req.system, ...conversation], config), instruction];
    const got = await ask(provider, config, signal, messages, wireToolSpecs(config, req.overhead.tools));
    // A server that counts more tokens than our estimate may refuse even this: the transcript is smaller.
    if (got.ok ? got.text : !contextOverflow(got.message)) return got;
  }
  // The transcript, the summarizer's instructions and the summary all fit the window.
  const maxChars = charsForTokens(window * 0.8 - allowance - 300);
  return ask(provider, config, signal, summaryPrompt(head, { maxChars }), []);
}

async function ask(
  provider: Provider,
  config: RunConfig,
  signal: AbortSignal,
  messages: ConversationMessage[],
  tools: readonly ToolSpec[] | undefined,
): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  let text = "";
  // The same num_ctx, keep_alive and think as every request: a different num_ctx reloads the model.
  for await (const ev of provider.stream({
    model: config.model,
    messages,
    tools: [...(tools ?? [])],
    numCtx: config.numCtx,
    keepAlive: config.keepAlive,
    think: config.think,
    // The summary extends the conversation's prompt: in the slot that holds its cache.
    ...(config.slot !== undefined ? { slot: config.slot } : {}),
    signal,
    idleTimeoutMs: config.idleTimeoutMs,
  })) {
    if (ev.type === "text") text += ev.delta;
    if (ev.type === "error") return { ok: false, message: ev.error.message };
  }
  return { ok: true, text: text.trim() };
}

/** The notice's account of what was cut to fit, tool outputs first. */
function cutNote(cut: CutCount): string {
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  const parts = [
    ...(cut.tools ? [plural(cut.tools, "tool output")] : []),
    ...(cut.others ? [plural(cut.others, "long message")] : []),
  ];
  return parts.length ? `; ${parts.join(" and ")} of the newest turns cut to fit` : "";
}
