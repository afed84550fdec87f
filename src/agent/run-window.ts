// What a run learns and keeps about the server's window and prompt cache: the user's newest
// message is refused whole (never cut) when it cannot fit, a cut prompt teaches the real window,
// and the cached-token counts tell a cold re-read once. (llama.cpp's slot is pinned as the run
// opens: run-state.ts.)
import type { ConversationMessage } from "../protocol/conversation.js";
import { newestMessageRefusal } from "./compaction/index.js";
import { overheadTokens, toolSpecTokens } from "./compaction/run.js";
import { cacheMissNotice } from "./cache-miss.js";
import { wireToolSpecs } from "./request.js";
import type { ModelReply } from "./model-call.js";
import type { RunState } from "./run-state.js";

const TOO_LONG_HINT = "Shorten it, or attach less, or use a model (or a server setting) with a larger context window.";

/** The tool schemas a request carries: none in the JSON protocol (they are in the system prompt). */
export function sentSpecs(run: Pick<RunState, "config" | "specs">): RunState["specs"] {
  return wireToolSpecs(run.config, run.specs);
}

/** The user's message may still be refused whole: it opened the run and the model has not answered. */
function stillAsking(run: RunState): boolean {
  return run.asking && !run.appended.some((m) => m.role === "assistant");
}

/** Why the newest user message cannot be sent with the system prompt and tools, before sending. */
export function tooLongToSend(run: RunState, system: ConversationMessage): string | undefined {
  if (!stillAsking(run) || run.config.windowUnknown) return undefined;
  const fixed = overheadTokens({ system, tools: sentSpecs(run) });
  return newestMessageRefusal(run.conversation, run.config.numCtx, fixed);
}

/** Too long for the window: back to the user before the model saw any of it, or the run's end. */
export function refuseTooLong(run: RunState, reason: string): void {
  if (stillAsking(run)) run.deps.emit({ type: "prompt-blocked", reason, source: "window" });
  else run.deps.emit({ type: "error", message: reason, hint: TOO_LONG_HINT });
}

/**
 * What a reply tells about the server: a cut prompt (from now on the window is what it really
 * holds; Ollama's num_ctx stays, changing it reloads the model), a cache that should have held
 * the prompt, and the tokens used.
 */
export function noteReply(run: RunState, reply: ModelReply): void {
  const { emit } = run.deps;
  if (reply.truncated) {
    if (!run.memory.truncationTold) emit({ type: "notice", level: "warn", text: reply.truncated.notice });
    run.memory.truncationTold = true;
    const config = run.config;
    if (config.provider !== "ollama" && (config.windowUnknown || reply.truncated.window < config.numCtx)) {
      run.config = { ...config, numCtx: reply.truncated.window };
      delete run.config.windowUnknown;
    }
  }
  const missed = run.memory.cacheMissTold
    ? undefined
    : cacheMissNotice(run.lastRequest, reply.cachedTokens, reply.promptTokens, run.config);
  if (missed) {
    run.memory.cacheMissTold = true;
    emit({ type: "notice", level: "warn", text: missed });
  }
  run.lastRequest =
    reply.promptTokens !== undefined && !reply.error
      ? { tokens: reply.promptTokens + (reply.completionTokens ?? 0), subAgentBetween: false }
      : undefined;
  if (reply.promptTokens === undefined) return;
  // Kept on the message, so the status line's figures are rebuilt from a saved session.
  reply.message.usage = { promptTokens: reply.promptTokens, completionTokens: reply.completionTokens ?? 0 };
  emit({
    type: "usage",
    promptTokens: reply.promptTokens,
    completionTokens: reply.completionTokens ?? 0,
    contextWindow: run.config.numCtx,
    ...(run.config.windowUnknown ? { windowUnknown: true as const } : {}),
    ...(reply.cachedTokens !== undefined ? { cachedTokens: reply.cachedTokens } : {}),
    toolTokens: toolSpecTokens(sentSpecs(run)),
  });
}
