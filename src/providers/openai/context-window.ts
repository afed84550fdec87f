// The context window an OpenAI-compatible server runs a model with. The OpenAI API does not say;
// the local servers do, each in its own place: vLLM's /v1/models `max_model_len`, OpenRouter's
// `context_length`, llama.cpp's /props `default_generation_settings.n_ctx`, LM Studio's
// /api/v0/models/{id} `loaded_context_length` (or `max_context_length`). Never throws.
import { OPENAI_DEFAULT_BASE_URL } from "./provider-constants.js";
import { probeJson, type Json } from "./probe-json.js";

const PROBE_TIMEOUT_MS = 5_000;

export async function serverContextWindow(opts: {
  baseUrl: string;
  apiKey?: string;
  model: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}): Promise<number | undefined> {
  const get = (url: string) => probeJson(url, { ...opts, timeoutMs: PROBE_TIMEOUT_MS });
  const listed = await get(`${opts.baseUrl}/models`);
  const entry = Array.isArray(listed?.data)
    ? (listed.data as Json[]).find((m) => m && typeof m === "object" && m.id === opts.model)
    : undefined;
  const fromList = positive(entry?.max_model_len) ?? positive(entry?.context_length) ?? positive(entry?.context_window);
  if (fromList || opts.baseUrl === OPENAI_DEFAULT_BASE_URL) return fromList;
  // llama.cpp and LM Studio answer beside their /v1 routes.
  const origin = opts.baseUrl.replace(/\/v1$/, "");
  const props = await get(`${origin}/props`);
  const settings = props?.default_generation_settings as Json | undefined;
  const fromProps = positive(settings?.n_ctx) ?? positive(props?.n_ctx);
  if (fromProps) return fromProps;
  const lmstudio = await get(`${origin}/api/v0/models/${encodeURIComponent(opts.model)}`);
  return positive(lmstudio?.loaded_context_length) ?? positive(lmstudio?.max_context_length);
}

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}
