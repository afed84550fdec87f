import { UNKNOWN_CONTEXT } from "../protocol/window.js";
import type { RunEvent } from "../protocol/agent-event.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { ConversationMessage } from "../protocol/conversation.js";
import type { ModelInfo, Provider } from "../providers/types.js";
import type { SessionMemory } from "../tools/session-memory.js";
import { chooseToolProtocol } from "../protocol/tool-protocol.js";
import { seesImages } from "../protocol/vision.js";
import { modelNotFoundHint } from "./model-suggest.js";
import { configDefaults, MAX_CONTEXT_TOKENS } from "../context/config-defaults.js";

/** On success, the config with the model, num_ctx, think and tool protocol resolved. */
export type ModelInfoResult = { ok: true; config: RunConfig } | { ok: false; message: string; hint?: string };

/** Used when a server does not tell the context length (Ollama's own fallback is small). */
export { UNKNOWN_CONTEXT };

/**
 * A token count a server or a config file gave: kept when it is a whole number from 1 to
 * MAX_CONTEXT_TOKENS, else undefined (0, -5, 1.5, 1e12, "abc", null all are). Sending such a num_ctx
 * makes Ollama misbehave (0 or less: its small default; 1e12: an allocation that fails).
 */
export function saneTokenCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 && value <= MAX_CONTEXT_TOKENS
    ? value
    : undefined;
}

/** Lookups started ahead of the run that will use them (prefetchModelInfo), by server and model: a session's. */
export type Prefetched = Map<string, Promise<ModelInfo>>;

const lookupKey = (config: RunConfig, model: string) =>
  JSON.stringify([config.provider, config.host, config.baseUrl, config.apiKey, model]);

/**
 * Starts asking the server about the configured model now, so the answer is there (or on its way)
 * when the run needs it: a headless run sends this as soon as it knows the model, and reads its
 * project meanwhile. The run takes the answer, or the error, exactly as if it had asked itself.
 */
export function prefetchModelInfo(provider: Provider, config: RunConfig, prefetched: Prefetched): void {
  if (!config.model || saneTokenCount(config.numCtx) !== undefined) return;
  const key = lookupKey(config, config.model);
  if (prefetched.has(key)) return;
  const lookup = provider.modelInfo(config.model);
  lookup.catch(() => {}); // the run reports it; until then it is not unhandled
  prefetched.set(key, lookup);
}

/** The prefetched lookup (once), else a new one; the run's signal stops waiting either way. */
function lookupModelInfo(
  provider: Provider,
  config: RunConfig,
  model: string,
  signal: AbortSignal,
  prefetched: Prefetched | undefined,
): Promise<ModelInfo> {
  const key = lookupKey(config, model);
  const early = prefetched?.get(key);
  if (!early) return provider.modelInfo(model, signal);
  prefetched!.delete(key);
  const stopped = () => new Error("The request was stopped.");
  if (signal.aborted) return Promise.reject(stopped());
  return new Promise((resolve, reject) => {
    const stop = () => reject(stopped());
    signal.addEventListener("abort", stop, { once: true });
    early.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

/**
 * Before the first chat of a session: pick the model (the first installed one when none is set),
 * fix num_ctx = min(context length, cap) and learn whether the model reads images. It stays the same for the whole session, because
 * a different num_ctx makes Ollama reload the model.
 */
export async function ensureModelInfo(
  provider: Provider,
  config: RunConfig,
  signal: AbortSignal,
  emit: (e: RunEvent) => void,
  /** The session's lookups started early (prefetchModelInfo); one for this model is taken. */
  prefetched?: Prefetched,
): Promise<ModelInfoResult> {
  if (config.model && saneTokenCount(config.numCtx) !== undefined) return { ok: true, config };
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
    const info = await lookupModelInfo(provider, config, config.model, signal, prefetched);
    let contextLength = saneTokenCount(info.contextLength);
    // Ollama and the embedded engine run with the num_ctx agent0 sends, so their window is always
    // known; another server that did not say is learned from a reply or a refusal.
    let unknown = false;
    if (contextLength === undefined) {
      contextLength = UNKNOWN_CONTEXT;
      unknown = config.provider !== "ollama" && config.provider !== "embedded";
      if (info.contextLength !== undefined) {
        emit({
          type: "notice",
          level: "warn",
          text: `The server gives ${config.model} a context length of ${JSON.stringify(info.contextLength)}, which is not a usable number of tokens; using ${UNKNOWN_CONTEXT}.`,
        });
      }
    }
    const cap = saneTokenCount(config.numCtxCap);
    if (cap === undefined) {
      emit({
        type: "notice",
        level: "warn",
        text: `numCtxCap ${JSON.stringify(config.numCtxCap)} is not a usable number of tokens; using ${configDefaults.numCtxCap}.`,
      });
    }
    if (saneTokenCount(config.numCtx) === undefined) {
      // numCtxCap bounds Ollama's num_ctx (memory on the user's machine), unless the model's
      // Modelfile chose its own (`PARAMETER num_ctx`); a hosted model's window is what it is.
      const chosen = saneTokenCount(info.configuredWindow);
      config.numCtx =
        config.provider !== "ollama"
          ? contextLength
          : chosen !== undefined
            ? Math.min(contextLength, chosen)
            : Math.min(contextLength, cap ?? configDefaults.numCtxCap);
    }
    if (unknown) config.windowUnknown = true;
    else delete config.windowUnknown;
    if (info.slots) config.slots = info.slots;
    else delete config.slots;
    // Only Ollama says which models think (/api/show); OpenAI-compatible servers' capabilities are assumed.
    const thinks = config.provider !== "ollama" || !info.capabilities.length || info.capabilities.includes("thinking");
    if (config.think === "off" && !thinks) {
      config.think = undefined; // nothing to turn off, and Ollama answers 400 to `think` here
    } else if (config.think && !thinks) {
      // Ollama answers 400 to `think` for a model that cannot think: ask without it.
      config.think = undefined;
      emit({
        type: "notice",
        level: "warn",
        text: `${config.model} does not think before answering; --think is ignored.`,
      });
    }
    if (config.provider === "ollama" && config.think && !["on", "off"].includes(config.think) && !info.thinkLevels) {
      emit({
        type: "notice",
        level: "info",
        text: `${config.model} thinks or not, at no level: --think ${config.think} asks it to think.`,
      });
      config.think = "on";
    }
    // The servers that say which models take tools (Ollama's /api/show, the engine's chat template).
    if (config.provider === "ollama" || config.provider === "embedded")
      config.toolProtocol = chooseToolProtocol(info.capabilities);
    config.seesImages = seesImages(config.vision, info.capabilities);
    emit({
      type: "model-info",
      model: config.model,
      contextLength,
      numCtx: config.numCtx,
      capabilities: info.capabilities,
      ...(unknown ? { windowUnknown: true as const } : {}),
      ...(info.slots ? { slots: info.slots } : {}),
    });
    return { ok: true, config };
  } catch (err) {
    const e = err as { message?: string; hint?: string; kind?: string };
    const hint =
      e.kind === "model-not-found" && config.model
        ? await modelNotFoundHint(provider, config.model, e.hint, signal)
        : e.hint;
    return { ok: false, message: e.message ?? String(err), hint };
  }
}

/** At this many replies with unreadable native calls, the session goes to the JSON protocol. */
export const NATIVE_FAILURES = 2;

/** A native-protocol reply held a call that could not be read; true when the session switches now. */
export function noteNativeFailure(memory: SessionMemory): boolean {
  return ++memory.nativeFailures === NATIVE_FAILURES;
}

/** Runs after the switch stay on the JSON protocol, whatever the UI's copy of the config says. */
export function failedNativeCalls(memory: SessionMemory): boolean {
  return memory.nativeFailures >= NATIVE_FAILURES;
}

/**
 * The user's new message carries images: whether the model sees them, asking the server when the
 * session has not learned it yet (a num_ctx given in the config skips the lookup above). Never a
 * silent drop: the TUI asks before it sends to a model known not to see, and a `-p` run, or a model
 * not known then, stops here with why.
 */
export async function imagesRefused(
  provider: Provider,
  config: RunConfig,
  conversation: readonly ConversationMessage[],
  signal: AbortSignal,
): Promise<{ config: RunConfig; refusal?: string }> {
  const last = conversation.at(-1);
  const count = last?.role === "user" ? (last.images?.length ?? 0) : 0;
  if (count === 0) return { config };
  let sees = config.seesImages ?? config.vision;
  if (sees === undefined) {
    const info = await provider.modelInfo(config.model, signal).catch(() => undefined);
    sees = info !== undefined && seesImages(config.vision, info.capabilities);
  }
  config = { ...config, seesImages: sees };
  if (sees) return { config };
  const what = count === 1 ? "the image" : `the ${count} images`;
  return {
    config,
    refusal: `${config.model} cannot see images, so ${what} would not reach it. Nothing was sent: choose a vision model (--model, or /model in the TUI, whose list marks "vision"), or set "vision": true in the config if this model does see.`,
  };
}
