import type { RunEvent } from "../protocol/agent-event.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { Provider } from "../providers/types.js";
import { chooseToolProtocol } from "../protocol/tool-protocol.js";

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
    if (config.numCtx <= 0) config.numCtx = Math.min(contextLength, config.numCtxCap);
    if (config.think && info.capabilities.length > 0 && !info.capabilities.includes("thinking")) {
      // Ollama answers 400 to `think` for a model that cannot think: ask without it.
      config.think = undefined;
      emit({
        type: "notice",
        level: "warn",
        text: `${config.model} does not think before answering; --think is ignored.`,
      });
    }
    if (config.provider === "ollama") config.toolProtocol = chooseToolProtocol(info.capabilities);
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

/** Replies with unreadable native calls per session: at NATIVE_FAILURES the session goes to JSON. */
const nativeFailures = new Map<string, number>();
export const NATIVE_FAILURES = 2;

/** A native-protocol reply held a call that could not be read; true when the session switches now. */
export function noteNativeFailure(config: RunConfig): boolean {
  const key = config.sessionId ?? "";
  const n = (nativeFailures.get(key) ?? 0) + 1;
  nativeFailures.set(key, n);
  return n === NATIVE_FAILURES;
}

/** Runs after the switch stay on the JSON protocol, whatever the UI's copy of the config says. */
export function failedNativeCalls(config: RunConfig): boolean {
  return (nativeFailures.get(config.sessionId ?? "") ?? 0) >= NATIVE_FAILURES;
}
