// Keeping the conversation inside the context window, the pure parts. Two layers (as in
// nano-claude-code): snip old tool outputs (free), then have the model summarize the older
// part and keep the recent ~30% verbatim. The loop does the model call in between:
//   plan = planCompaction(...); if summarize: text = model(summaryPrompt(plan.head));
//   conversation = applySummary(plan.system, text, plan.tail)

import type { ConversationMessage } from "../../protocol/conversation.js";
import { charsForTokens, estimateTokens } from "../../protocol/tokens.js";

export { applySummary, summaryPrompt, SUMMARY_PREFIX } from "./summary.js";
export { estimateTextTokens, estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from "../../protocol/tokens.js";

/** Compaction starts when the next request would fill more than this share of the window. */
export const COMPACT_AT = 0.8;
/**
 * It brings the request down to at most this share: a summary and the newest turns verbatim. Far
 * enough under COMPACT_AT that the turns after it do not compact again at once: every compaction
 * costs a summary request and a prompt the server reads anew.
 */
export const COMPACT_TO = 0.5;

/** The room kept for the summary in the compacted request (and asked of the model). */
export function summaryAllowance(window: number): number {
  return Math.min(1024, Math.floor(window * 0.12));
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
  /** Compact when the prompt would exceed this share of the window (default COMPACT_AT). */
  threshold?: number;
  /** The share of the window the compacted prompt may fill at most (default COMPACT_TO). */
  target?: number;
  /** Tokens sent beside `messages` (system prompt, tool schemas) when they are not in it. */
  systemTokens?: number;
  /** /compact: summarize even below the threshold. */
  force?: boolean;
}

export type CompactionPlan =
  | { action: "none" }
  | {
      action: "snip";
      messages: ConversationMessage[];
      before: number;
      after: number;
      /** What of the newest turns was cut to fit (none when nothing was). */
      cut: CutCount;
    }
  | {
      action: "summarize";
      /** A leading system message, kept apart: it goes first again in applySummary. */
      system: ConversationMessage | undefined;
      /** To summarize. */
      head: ConversationMessage[];
      /** Kept verbatim: the newest messages that fit the target and always the last user message. */
      tail: ConversationMessage[];
      before: number;
      /** What of the tail was cut to fit. */
      cut: CutCount;
    };

/**
 * What to do before the next model call. Over the threshold, old tool outputs are snipped when
 * that alone brings the prompt to the target; otherwise the older part is summarized and the tail
 * keeps what fits the target beside the overhead and the summary. The tail never starts with a
 * tool result cut off from its call (the cut moves back to the assistant message that made the
 * call) and always holds the last user message verbatim. When the tail alone is too big (one
 * huge tool output), its tool outputs are cut, then its largest messages, until it fits.
 */
export function planCompaction(messages: readonly ConversationMessage[], opts: CompactionOptions): CompactionPlan {
  const window = opts.contextWindow;
  const limit = window * (opts.threshold ?? COMPACT_AT);
  const goal = window * (opts.target ?? COMPACT_TO);
  const overhead = opts.systemTokens ?? 0;
  const before = overhead + estimateTokens(messages);
  if (!opts.force && before <= limit) return { action: "none" };

  const snipped = snipToolOutputs(messages, opts);
  const after = overhead + estimateTokens(snipped);
  if (!opts.force && after <= goal && after < before)
    return { action: "snip", messages: snipped, before, after, cut: { tools: 0, others: 0 } };

  const system = snipped[0]?.role === "system" ? snipped[0] : undefined;
  const body = system ? snipped.slice(1) : snipped;
  const room = Math.max(0, goal - overhead - summaryAllowance(window));
  const split = splitForSummary(body, room, opts.force ?? false);
  const fitted = cutToFit(split.tail, room);
  if (split.head.length === 0) {
    if (opts.force || fitted.cut.tools + fitted.cut.others === 0) return { action: "none" };
    const messages = system ? [system, ...fitted.messages] : fitted.messages;
    return { action: "snip", messages, before, after: overhead + estimateTokens(messages), cut: fitted.cut };
  }
  return { action: "summarize", system, head: split.head, tail: fitted.messages, before, cut: fitted.cut };
}

/** How many tool outputs and other messages were cut to fit. */
export interface CutCount {
  tools: number;
  others: number;
}

/**
 * The user's newest message: the last user message that is not a mode note. It is never cut or
 * summarized (issue 43: the user's own words above all).
 */
export function newestUserIndex(messages: readonly ConversationMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "user" && !messages[i]!.mode) return i;
  return -1;
}

/**
 * Cuts messages to their head and tail, tool outputs first and the largest first, until the whole
 * estimate is at most `maxTokens` (or nothing is left to cut). The user's newest message stays whole.
 */
export function cutToFit(
  messages: readonly ConversationMessage[],
  maxTokens: number,
): { messages: ConversationMessage[]; cut: CutCount } {
  const out = [...messages];
  let over = estimateTokens(out) - maxTokens;
  const cut: CutCount = { tools: 0, others: 0 };
  const MIN_CHARS = 400;
  const newest = newestUserIndex(out);
  for (const roles of [["tool"], ["tool", "user", "assistant"]]) {
    const order = out
      .map((m, i) => ({ m, i }))
      .filter(({ m, i }) => i !== newest && roles.includes(m.role) && m.content.length > MIN_CHARS)
      .sort((a, b) => b.m.content.length - a.m.content.length);
    for (const { i } of order) {
      const m = out[i]!;
      if (over <= 0 || m.content.length <= MIN_CHARS) continue;
      const keep = Math.max(MIN_CHARS, m.content.length - charsForTokens(over) - 200);
      const head = m.content.slice(0, Math.floor(keep * 0.6));
      const tail = m.content.slice(m.content.length - Math.floor(keep * 0.4));
      const next = {
        ...m,
        content: `${head}\n[... ${m.content.length - head.length - tail.length} chars cut to fit the context window ...]\n${tail}`,
      };
      over -= estimateTokens([m]) - estimateTokens([next]);
      out[i] = next;
      if (m.role === "tool") cut.tools++;
      else cut.others++;
    }
  }
  return { messages: out, cut };
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
 * Whether the user's newest message can be sent at all: with the system prompt and the tools
 * (`fixedTokens`) and room for an answer, inside the window. Undefined when it fits; otherwise what
 * to tell the user, with the figures. Nothing else of the conversation counts: compaction can
 * shrink all of it.
 */
export function newestMessageRefusal(
  messages: readonly ConversationMessage[],
  window: number,
  fixedTokens: number,
): string | undefined {
  const at = newestUserIndex(messages);
  if (at < 0) return undefined;
  const own = estimateTokens([messages[at]!]);
  // The answer needs room too: as much as a compacted request keeps for its summary.
  const need = fixedTokens + own + summaryAllowance(window);
  if (need <= window) return undefined;
  const n = (v: number) => v.toLocaleString("en-US");
  return (
    `Your message is about ${n(own)} tokens; with the system prompt and tools (about ${n(fixedTokens)}) and room ` +
    `for an answer it needs about ${n(need)}, more than the model's ${n(window)}-token context window.`
  );
}

/**
 * Ollama drops the oldest messages without an error when the prompt exceeds num_ctx; its
 * prompt_eval_count then falls far below our estimate.
 */
export function truncationSuspected(promptEvalCount: number, estimate: number): boolean {
  return estimate > 1000 && promptEvalCount < estimate * 0.6;
}
