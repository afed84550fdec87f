// /export: a conversation as Markdown — what the user and the model said, each tool call with its
// result — for sharing or keeping outside agent0. Claude Code's /export writes the same kind of file.
import type { ConversationMessage } from "../protocol/conversation.js";

/** A fence longer than any run of backticks in `text`, so the block cannot be closed early. */
function fenced(text: string, lang = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${text.replace(/\n$/, "")}\n${fence}`;
}

export function conversationMarkdown(
  conversation: ConversationMessage[],
  meta: { sessionId: string; model: string; exportedAt: string },
): string {
  const out = [`# agent0 session ${meta.sessionId}`, "", `Model: ${meta.model} · exported ${meta.exportedAt}`, ""];
  for (const m of conversation) {
    switch (m.role) {
      case "system":
        break;
      case "user":
        out.push("## You", "", m.typed ?? m.content, "");
        break;
      case "assistant":
        out.push("## agent0", "");
        if (m.content.trim()) out.push(m.content, "");
        for (const call of m.toolCalls ?? [])
          out.push(`**Tool call** \`${call.name}\``, "", fenced(JSON.stringify(call.args, null, 2), "json"), "");
        if (m.interrupted) out.push("_(interrupted)_", "");
        break;
      case "tool": {
        const d = m.display;
        out.push(`**Result** of \`${m.toolName ?? "tool"}\`${d ? ` — ${d.label}: ${d.summary}` : ""}`, "");
        out.push(d?.diff ? fenced(d.diff, "diff") : fenced(m.content), "");
        break;
      }
    }
  }
  return out.join("\n");
}
