import type { RunEvent } from "../protocol/agent-event.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { Provider } from "../providers/types.js";

/** On success, the config with the model, num_ctx, think and tool protocol resolved. */
export type ModelInfoResult = { ok: true; config: RunConfig } | { ok: false; message: string; hint?: string };

/** Used when a server does not tell the context length (Ollama's own fallback is small). */
const UNKNOWN_CONTEXT = 8192;

/**
 * Before the first chat of a session: pick the model (the first installed one when none is set)
 * and fix num_ctx = min(context length, cap). It stays the same for the whole session, because
 * a different num_ctx makes Ollama reload the model.
 */
export async function ensureModelInfo(
  provider: Provider,
  config: RunConfig,
  signal: AbortSignal,
  emit: (e: RunEvent) => void,
): Promise<ModelInfoResult> {
  if (config.model && config.numCtx > 0) return { ok: true, config };
  config = { ...config };
  try {
    if (!config.model) {
      const models = await provider.listModels(signal);
      if (models.length === 0) {
        return {
          ok: false,
          message: `No models are installed on ${config.host}.`,
          hint: "Pull one first, e.g. `ollama pull qwen3:8b`, or choose one with --model.",
        };
      }
      config.model = models[0]!.name;
    }
    const info = await provider.modelInfo(config.model, signal);
    const contextLength = info.contextLength ?? UNKNOWN_CONTEXT;
    // numCtxCap bounds Ollama's num_ctx (memory on the user's machine); a hosted model's window
    // is what it is.
    if (config.numCtx <= 0)
      config.numCtx = config.provider === "ollama" ? Math.min(contextLength, config.numCtxCap) : contextLength;
    if (config.think && info.capabilities.length > 0 && !info.capabilities.includes("thinking")) {
      // Ollama answers 400 to `think` for a model that cannot think: ask without it.
      config.think = undefined;
      emit({
        type: "notice",
        level: "warn",
        text: `${config.model} does not think before answering; --think is ignored.`,
      });
    }
    if (config.provider === "ollama" && info.capabilities.length > 0 && !info.capabilities.includes("tools")) {
      config.toolProtocol = "json";
    }
    emit({
      type: "model-info",
      model: config.model,
      contextLength,
      numCtx: config.numCtx,
      capabilities: info.capabilities,
    });
    return { ok: true, config };
  } catch (err) {
    const e = err as { message?: string; hint?: string };
    return { ok: false, message: e.message ?? String(err), hint: e.hint };
  }
}
