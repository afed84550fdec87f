// The summarizing half of compaction: the request that asks the model for a summary of
// the older messages, and the conversation rebuilt around that summary.

import type { ConversationMessage } from "../../protocol/conversation.js";

export const SUMMARY_PREFIX = "Summary of the earlier conversation:";

const SUMMARIZER_SYSTEM =
  "You summarize a coding agent's conversation so the agent can continue the work without it. " +
  "Write plain markdown. Be concise and concrete; keep exact file paths, names, commands and error messages.";

const INSTRUCTIONS = [
  "Summarize the conversation below. Keep:",
  "- what the user asked for, in their words where it matters, and every constraint or preference they stated;",
  "- decisions made and why;",
  "- files read, created or changed, with the facts about them that will be needed again;",
  "- commands run and their important results, including errors and how they were resolved;",
  "- what is done, what is in progress and what remains to do.",
  "Leave out greetings, repeated tool output and anything no longer relevant. Answer with the summary only.",
].join("\n");

/**
 * The instruction appended to the conversation itself when the summary request extends the
 * prompt the server has cached. The model is asked not to call tools (none would run).
 */
export const IN_PLACE_INSTRUCTIONS = (maxTokens: number): string =>
  [
    "[agent0: the context window is nearly full. Do not call any tool and do not continue the task now.]",
    `Write a summary of the conversation so far (at most about ${Math.round(maxTokens * 0.75)} words) that will replace it, so you can continue the work without it.`,
    INSTRUCTIONS.split("\n").slice(1, -1).join("\n"),
    "Answer with the summary only.",
  ].join("\n");

/** Per-message caps, so one huge file read does not crowd out the rest of the history. */
const TOOL_RESULT_CHARS = 1500;
const MESSAGE_CHARS = 4000;
const CALL_ARGS_CHARS = 400;

/**
 * The request to the model: a system message and one user message holding the messages
 * to summarize as a transcript. Over `maxChars`, the oldest messages after the first (the
 * original request) are left out with a marker.
 */
export function summaryPrompt(
  head: readonly ConversationMessage[],
  opts: { maxChars?: number } = {},
): ConversationMessage[] {
  const maxChars = opts.maxChars ?? 100_000;
  const entries = head.map(renderMessage);
  let total = entries.reduce((n, e) => n + e.length + 2, 0);
  let dropped = 0;
  while (total > maxChars && entries.length - dropped > 2) {
    total -= entries[1 + dropped]!.length + 2;
    dropped++;
  }
  const kept =
    dropped === 0
      ? entries
      : [entries[0]!, `[... ${dropped} earlier messages left out ...]`, ...entries.slice(1 + dropped)];
  return [
    { role: "system", content: SUMMARIZER_SYSTEM },
    { role: "user", content: `${INSTRUCTIONS}\n\n<conversation>\n${kept.join("\n\n")}\n</conversation>` },
  ];
}

/** The system message (if any), one user message with the summary, then the tail. */
export function applySummary(
  system: ConversationMessage | string | undefined,
  summaryText: string,
  tail: readonly ConversationMessage[],
): ConversationMessage[] {
  const sys: ConversationMessage[] =
    system === undefined ? [] : typeof system === "string" ? [{ role: "system", content: system }] : [system];
  return [...sys, { role: "user", content: `${SUMMARY_PREFIX}\n\n${summaryText.trim()}` }, ...tail];
}

function renderMessage(m: ConversationMessage): string {
  switch (m.role) {
    case "tool":
      return `TOOL RESULT (${m.toolName ?? "tool"}):\n${cap(m.content, TOOL_RESULT_CHARS)}`;
    case "assistant": {
      const calls = (m.toolCalls ?? []).map((c) => `-> ${c.name} ${cap(JSON.stringify(c.args), CALL_ARGS_CHARS)}`);
      const text = m.content.trim() === "" ? [] : [cap(m.content, MESSAGE_CHARS)];
      return [`ASSISTANT${m.interrupted ? " (interrupted)" : ""}:`, ...text, ...calls].join("\n");
    }
    case "user":
      return `USER:\n${cap(m.content, MESSAGE_CHARS)}`;
    case "system":
      return `SYSTEM:\n${cap(m.content, MESSAGE_CHARS)}`;
  }
}

function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.7);
  const tail = max - head;
  return `${text.slice(0, head)}\n[... ${text.length - head - tail} chars left out ...]\n${text.slice(text.length - tail)}`;
}
