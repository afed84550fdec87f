// Keeping the conversation inside the context window, the pure parts. Two layers (as in
// nano-claude-code): snip old tool outputs (free), then have the model summarize the older
// part and keep the recent ~30% verbatim. The loop does the model call in between:
//   plan = planCompaction(...); if summarize: text = model(summaryPrompt(plan.head));
//   conversation = applySummary(plan.system, text, plan.tail)

import type { ConversationMessage } from "../../protocol/conversation.js";

export { applySummary, summaryPrompt, SUMMARY_PREFIX } from "./summary.js";

/** Tokens a message costs beyond its text (role markers of the chat template). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
const CHARS_PER_TOKEN = 4;
/** What one image costs a vision model: Ollama counts 768 tokens per image (server/prompt.go). */
export const IMAGE_TOKENS = 768;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * A cheap estimate: characters / 4 plus a per-message overhead. Tool calls count as their
 * JSON; `thinking` does not count, since chat templates drop it from earlier turns; an image
 * counts IMAGE_TOKENS, not its base64.
 */
export function estimateTokens(messages: readonly ConversationMessage[]): number {
  let total = 0;
  for (const m of messages) {
    const calls = m.toolCalls?.length ? JSON.stringify(m.toolCalls.map((c) => ({ name: c.name, args: c.args }))) : "";
    total += MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(m.content) + estimateTextTokens(calls);
    total += (m.images?.length ?? 0) * IMAGE_TOKENS;
  }
  return total;
}

export interface SnipOptions {
  /** The newest messages that always stay whole. */
  keepLast?: number;
  /** Older tool results longer than this are cut to head + tail. */
  maxChars?: number;
}

/**
 * Older tool results over `maxChars` become their first half-limit + a marker + their
 * last quarter-limit: the start of a file or listing and the end of a command's output
 * are what the model most likely needs again.
 */
export function snipToolOutputs(
  messages: readonly ConversationMessage[],
  opts: SnipOptions = {},
): ConversationMessage[] {
  const keepLast = opts.keepLast ?? 6;
  const maxChars = opts.maxChars ?? 2000;
  const cutoff = messages.length - keepLast;
  return messages.map((m, i) => {
    if (i >= cutoff || m.role !== "tool") return m;
    // An older result's images go first: its text still says what they were.
    if (m.images) {
      const { images: _drop, ...text } = m;
      m = text;
    }
    if (m.content.length <= maxChars) return m;
    const head = m.content.slice(0, Math.floor(maxChars / 2));
    const tail = m.content.slice(m.content.length - Math.floor(maxChars / 4));
    const snipped = m.content.length - head.length - tail.length;
    return { ...m, content: `${head}\n[... ${snipped} chars snipped ...]\n${tail}` };
  });
}

export interface CompactionOptions extends SnipOptions {
  /** The context window in use (the num_ctx sent). */
  contextWindow: number;
  /** Compact when the prompt would exceed this share of the window. */
  threshold?: number;
  /** The share of the window kept verbatim when summarizing. */
  keepRecentFraction?: number;
  /** Tokens sent beside `messages` (system prompt, tool schemas) when they are not in it. */
  systemTokens?: number;
  /** /compact: summarize even below the threshold. */
  force?: boolean;
}

export type CompactionPlan =
  | { action: "none" }
  | { action: "snip"; messages: ConversationMessage[]; before: number; after: number }
  | {
      action: "summarize";
      /** A leading system message, kept apart: it goes first again in applySummary. */
      system: ConversationMessage | undefined;
      /** To summarize. */
      head: ConversationMessage[];
      /** Kept verbatim: the newest messages (~keepRecentFraction of the window) and always the last user message. */
      tail: ConversationMessage[];
      before: number;
    };

/**
 * What to do before the next model call. The tail never starts with a tool result cut off
 * from its call (the cut moves back to the assistant message that made the call) and
 * always holds the last user message verbatim. When the current request alone is over the
 * budget, the tail is that user message followed by the newest steps, and the older steps
 * of the request go to the head.
 */
export function planCompaction(messages: readonly ConversationMessage[], opts: CompactionOptions): CompactionPlan {
  const threshold = opts.threshold ?? 0.7;
  const limit = opts.contextWindow * threshold;
  const overhead = opts.systemTokens ?? 0;
  const before = overhead + estimateTokens(messages);
  if (!opts.force && before <= limit) return { action: "none" };

  const snipped = snipToolOutputs(messages, opts);
  const after = overhead + estimateTokens(snipped);
  const snipPlan: CompactionPlan =
    after < before ? { action: "snip", messages: snipped, before, after } : { action: "none" };
  if (!opts.force && after <= limit) return snipPlan;

  const system = snipped[0]?.role === "system" ? snipped[0] : undefined;
  const body = system ? snipped.slice(1) : snipped;
  // The tail also leaves half of what is under the limit after the overhead for the
  // summary and the messages still to come.
  const budget = Math.min(opts.contextWindow * (opts.keepRecentFraction ?? 0.3), Math.max(0, limit - overhead) / 2);
  const split = splitForSummary(body, budget, opts.force ?? false);
  if (split.head.length === 0) return opts.force ? { action: "none" } : snipPlan;
  return { action: "summarize", system, head: split.head, tail: split.tail, before };
}

/**
 * `force` (/compact): the user asked for a smaller history even when it all fits the recent
 * budget, so everything before the last user message is summarized at least.
 */
function splitForSummary(
  body: readonly ConversationMessage[],
  budget: number,
  force: boolean,
): { head: ConversationMessage[]; tail: ConversationMessage[] } {
  let cut = body.length;
  let used = 0;
  while (cut > 0) {
    const cost = estimateTokens([body[cut - 1]!]);
    if (used + cost > budget) break;
    used += cost;
    cut--;
  }
  while (cut > 0 && cut < body.length && body[cut]!.role === "tool") cut--;

  let lastUser = -1;
  for (let i = body.length - 1; i >= 0; i--) {
    if (body[i]!.role === "user") {
      lastUser = i;
      break;
    }
  }
  if (force && lastUser > cut) cut = lastUser;
  if (lastUser === -1 || cut <= lastUser) return { head: body.slice(0, cut), tail: body.slice(cut) };
  return {
    head: [...body.slice(0, lastUser), ...body.slice(lastUser + 1, cut)],
    tail: [body[lastUser]!, ...body.slice(cut)],
  };
}

/**
 * Ollama drops the oldest messages without an error when the prompt exceeds num_ctx; its
 * prompt_eval_count then falls far below our estimate.
 */
export function truncationSuspected(promptEvalCount: number, estimate: number): boolean {
  return estimate > 1000 && promptEvalCount < estimate * 0.6;
}
