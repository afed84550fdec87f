// /context (ui/layout: update shows it as a notice): what fills the context window, part by part, from the Model alone (pure). The parts are
// the request the next run sends: the system prompt (the lean one in a small window), the tool
// schemas as the worker last reported them, the project's own context (instruction files, git),
// the messages, and what is free. Figures are estimates (characters / 4); the status line shows
// the server's own count of the last request, and the two agree within a few per cent.
import type { Model } from "../model.js";
import { estimateTokens } from "../../protocol/tokens.js";
import { smallWindow } from "../../protocol/window.js";
import { toolProtocolLabel } from "../../protocol/tool-protocol.js";

const n = (v: number) => v.toLocaleString("en-US");

/** The budget's parts, in the order /context lists them; tools is undefined before the first request. */
export function contextParts(model: Model): { name: string; tokens: number | undefined; note?: string }[] {
  const small = smallWindow(model.config.numCtx, model.config.provider);
  const parts = small ? model.promptParts.lean : model.promptParts.full;
  const sum = (kind: "system" | "project") => parts.filter((p) => p.kind === kind).reduce((t, p) => t + p.tokens, 0);
  const project = parts.filter((p) => p.kind === "project").map((p) => p.name);
  return [
    { name: "system prompt", tokens: sum("system") },
    {
      name: "tools",
      tokens: model.prompt.toolTokens,
      note: model.prompt.toolTokens === undefined ? "known after the first request" : undefined,
    },
    { name: "project context", tokens: sum("project"), note: project.length ? project.join(", ") : undefined },
    {
      name: "messages",
      tokens: estimateTokens(model.conversation),
      note: `${model.conversation.length} message${model.conversation.length === 1 ? "" : "s"}`,
    },
  ];
}

export function contextReport(model: Model): string {
  const window = model.config.windowUnknown ? 0 : model.config.numCtx;
  const parts = contextParts(model);
  const used = parts.reduce((t, p) => t + (p.tokens ?? 0), 0);
  const rows: [string, string, string, string][] = parts.map((p) => [
    p.name,
    p.tokens === undefined ? "—" : `~${n(p.tokens)}`,
    p.tokens !== undefined && window > 0 ? `${Math.round((p.tokens / window) * 100)}%` : "",
    p.note ?? "",
  ]);
  if (window > 0)
    rows.push([
      "free",
      `~${n(Math.max(0, window - used))}`,
      `${Math.round((Math.max(0, window - used) / window) * 100)}%`,
      "",
    ]);
  rows.push(["total", `~${n(used)}`, window > 0 ? `${Math.round((used / window) * 100)}%` : "", ""]);
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  const w2 = Math.max(...rows.map((r) => r[2].length));
  const table = rows.map(([a, b, c, d]) =>
    `  ${a.padEnd(w0)}  ${b.padStart(w1)}  ${c.padStart(w2)}${d ? `  ${d}` : ""}`.trimEnd(),
  );

  const head =
    window > 0
      ? `Context window: ${n(window)} tokens${smallWindow(window, model.config.provider) ? " (small: lean system prompt and tool set)" : ""}`
      : model.config.windowUnknown
        ? "Context window: not reported by the server (learned from its first reply's counts, or an overflow error)"
        : "Context window: not known yet (the model is still being looked up)";
  const reported = model.usage.promptTokens + model.usage.completionTokens;
  const lines = [head, ...table];
  if (reported > 0)
    lines.push(`  The status line's ${n(reported)} is the server's count of the last request and its answer.`);
  lines.push(cacheLine(model), `Tool calls: ${toolProtocolLabel(model.config.provider, model.config.toolProtocol)}`);
  const promptParts = smallWindow(model.config.numCtx, model.config.provider)
    ? model.promptParts.lean
    : model.promptParts.full;
  if (promptParts.length) {
    const nw = Math.max(4, ...promptParts.map((p) => p.name.length));
    lines.push(
      "System prompt and project context, by part:",
      ...promptParts.map((p) => `  ${p.name.padEnd(nw)}  ${`~${n(p.tokens)}`.padStart(7)}  ${p.source}`),
    );
  }
  return lines.join("\n");
}

/** What the server's prompt cache held, when the server says (Ollama, llama.cpp, OpenAI-compatible, Anthropic). */
function cacheLine(model: Model): string {
  const p = model.prompt;
  if (!p.last) return "Prompt cache: the server has not said what it reused (yet).";
  const pct = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) : 0);
  return (
    `Prompt cache: the last request read ${n(p.last.cached)} of its ${n(p.last.prompt)} prompt tokens from the server's cache ` +
    `(${pct(p.last.cached, p.last.prompt)}%); ${pct(p.cachedTokens, p.promptTokens)}% over ${p.cacheRequests} request${p.cacheRequests === 1 ? "" : "s"} this session.`
  );
}
