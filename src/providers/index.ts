import { PROVIDERS, type ProviderName, type RunConfig } from "../protocol/run-config.js";
import { assertNever } from "../protocol/assert-never.js";
import { createOllamaProvider, ollamaApiKey, resolveOllamaHost } from "./ollama/provider.js";
import type { Provider } from "./types.js";

export { resolveOllamaHost, DEFAULT_OLLAMA_HOST, createOllamaProvider } from "./ollama/provider.js";
export { ProviderFailure, isProviderError, plainError } from "./errors.js";

/** "anthropic/claude-sonnet-4-6" -> provider and model; names without a known prefix are left whole
 *  ("qwen/qwen3-coder" on OpenRouter stays one model name). */
export function splitProviderModel(name: string): { provider?: ProviderName; model: string } {
  const slash = name.indexOf("/");
  const prefix = name.slice(0, slash) as ProviderName;
  if (slash > 0 && PROVIDERS.includes(prefix)) return { provider: prefix, model: name.slice(slash + 1) };
  return { model: name };
}

/**
 * The provider for a run. Ollama: config.host (raw or resolved), else $OLLAMA_HOST ($OLLAMA_API_KEY for
 * https://ollama.com only). Anthropic:
 * config.apiKey / $ANTHROPIC_API_KEY and config.baseUrl / $ANTHROPIC_BASE_URL. OpenAI-compatible:
 * config.apiKey / $OPENAI_API_KEY and config.baseUrl / $OPENAI_BASE_URL.
 */
export function createProvider(config: RunConfig, env: NodeJS.ProcessEnv = process.env): Provider {
  switch (config.provider) {
    case "ollama": {
      const host = resolveOllamaHost(config.host || undefined, env);
      return createOllamaProvider({ host, apiKey: ollamaApiKey(host, env) });
    }
    case "anthropic":
      return lazyProvider("anthropic", async () =>
        (await import("./anthropic/provider.js")).createAnthropicProvider({
          apiKey: config.apiKey || env.ANTHROPIC_API_KEY,
          baseUrl: config.baseUrl || env.ANTHROPIC_BASE_URL,
        }),
      );
    case "openai":
      return lazyProvider("openai", async () =>
        (await import("./openai/provider.js")).createOpenAIProvider({
          apiKey: config.apiKey || env.OPENAI_API_KEY,
          baseUrl: config.baseUrl || env.OPENAI_BASE_URL,
        }),
      );
    case "embedded":
      return lazyProvider("embedded", async () => {
        const { createEmbeddedProvider } = await import("./embedded/provider.js");
        const { engineDir } = await import("./embedded/engine.js");
        return createEmbeddedProvider({ engineDir: engineDir(config.dataDir, env) });
      });
    default:
      return assertNever(config.provider);
  }
}

/**
 * A provider whose SDK loads on first use: the Anthropic and OpenAI SDKs are large, and most
 * sessions talk to Ollama only (idle memory, DESIGN.md §5).
 */
function lazyProvider(name: string, load: () => Promise<Provider>): Provider {
  let loaded: Promise<Provider> | undefined;
  const get = () => (loaded ??= load());
  return {
    name,
    async *stream(req) {
      yield* (await get()).stream(req);
    },
    listModels: async (signal) => (await get()).listModels(signal),
    modelInfo: async (model, signal) => (await get()).modelInfo(model, signal),
  };
}
