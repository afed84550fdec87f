// The context window an OpenAI-compatible server runs a model with. The OpenAI API does not say;
// the local servers do, each in its own place: vLLM's /v1/models `max_model_len`, OpenRouter's
// `context_length`, llama.cpp's /props `default_generation_settings.n_ctx`, LM Studio's v1 REST API
// (0.4+: /api/v1/models, a loaded instance's `config.context_length`) or its v0 API
// (/api/v0/models/{id} `loaded_context_length`). A model LM Studio has not loaded has no window
// yet (it loads with its own default, not `max_context_length`): undefined, as for a server that
// does not say. Never throws.
import { OPENAI_DEFAULT_BASE_URL } from "./provider-constants.js";
import { probeJson, type Json } from "./probe-json.js";

const PROBE_TIMEOUT_MS = 5_000;

/** What a server tells of a model: its window, and llama.cpp's number of slots (parallel sequences). */
export interface ServerFacts {
  window?: number;
  slots?: number;
}

export async function serverFacts(opts: {
  baseUrl: string;
  apiKey?: string;
  model: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}): Promise<ServerFacts> {
  const get = (url: string) => probeJson(url, { ...opts, timeoutMs: PROBE_TIMEOUT_MS });
  const listed = await get(`${opts.baseUrl}/models`);
  const entry = Array.isArray(listed?.data)
    ? (listed.data as Json[]).find((m) => m && typeof m === "object" && m.id === opts.model)
    : undefined;
  const fromList = positive(entry?.max_model_len) ?? positive(entry?.context_length) ?? positive(entry?.context_window);
  if (fromList || opts.baseUrl === OPENAI_DEFAULT_BASE_URL) return { window: fromList };
  // llama.cpp and LM Studio answer beside their /v1 routes.
  const origin = opts.baseUrl.replace(/\/v1$/, "");
  const props = await get(`${origin}/props`);
  const settings = props?.default_generation_settings as Json | undefined;
  const fromProps = positive(settings?.n_ctx) ?? positive(props?.n_ctx);
  if (fromProps) return { window: fromProps, slots: await slotCount(get, origin, props) };
  const v1 = await get(`${origin}/api/v1/models`);
  if (Array.isArray(v1?.models)) return { window: loadedWindow(v1.models as unknown[], opts.model) };
  const lmstudio = await get(`${origin}/api/v0/models/${encodeURIComponent(opts.model)}`);
  return { window: positive(lmstudio?.loaded_context_length) };
}

/**
 * llama.cpp's slots: GET /slots lists one object per slot (ggml-org/llama.cpp tools/server README,
 * "GET /slots"); a server started with --no-slots refuses it, and /props' `total_slots` says the same.
 */
async function slotCount(
  get: (url: string) => Promise<Json | undefined>,
  origin: string,
  props: Json | undefined,
): Promise<number | undefined> {
  const listed = (await get(`${origin}/slots`)) as unknown;
  return Array.isArray(listed) && listed.length > 0 ? listed.length : positive(props?.total_slots);
}

/** LM Studio's v1 list (lmstudio-ai/docs 1_developer/2_rest/list.md): the model's loaded instance's window. */
function loadedWindow(models: unknown[], model: string): number | undefined {
  const entry = models.find((m): m is Json => !!m && typeof m === "object" && (m as Json).key === model);
  const instances = Array.isArray(entry?.loaded_instances) ? (entry.loaded_instances as Json[]) : [];
  for (const instance of instances) {
    const window = positive((instance?.config as Json | undefined)?.context_length);
    if (window) return window;
  }
  return undefined;
}

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}
