// Other local servers, found when nothing answers at Ollama's default address: LM Studio on 1234,
// llama.cpp's server on 8080, vLLM on 8000, each on loopback only. Each is told apart by what it
// says about itself, never by its port alone:
// - LM Studio answers its own REST API, GET /api/v0/models (lmstudio.ai/docs/developer/rest/endpoints);
// - llama.cpp's server lists its models with `owned_by: "llamacpp"` (tools/server, /v1/models);
// - vLLM lists them with `owned_by: "vllm"` and `max_model_len` (vllm/entrypoints/openai/protocol.py, ModelCard).
// Never throws.

export interface FoundServer {
  /** "LM Studio", "llama.cpp's server", "vLLM", or "an OpenAI-compatible server". */
  name: string;
  /** The base URL for --base-url (with /v1). */
  baseUrl: string;
  /** How it was recognised, for the message. */
  how: string;
  /** The models it offers (loaded first, for LM Studio). */
  models: string[];
}

/** The usual ports, in the order they are offered. */
export const DEFAULT_DISCOVERY_PORTS = [1234, 8080, 8000];
const PROBE_TIMEOUT_MS = 800;

/** The ports to look at: AGENT0_DISCOVERY_PORTS=1,2,3 (an end-to-end test's fake servers), else the usual ones. */
export function discoveryPorts(env: NodeJS.ProcessEnv = process.env): number[] {
  const raw = env.AGENT0_DISCOVERY_PORTS;
  const ports = (raw ?? "")
    .split(",")
    .map(Number)
    .filter((p) => Number.isInteger(p) && p > 0 && p < 65536);
  return ports.length ? ports : DEFAULT_DISCOVERY_PORTS;
}

type Json = Record<string, unknown>;

export async function discoverLocalServers(
  opts: { ports?: number[]; fetch?: typeof fetch; host?: string } = {},
): Promise<FoundServer[]> {
  const host = opts.host ?? "127.0.0.1";
  const get = async (url: string): Promise<Json | undefined> => {
    try {
      const res = await (opts.fetch ?? fetch)(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      if (!res.ok) return undefined;
      const body: unknown = await res.json();
      return body && typeof body === "object" ? (body as Json) : undefined;
    } catch {
      return undefined;
    }
  };
  const found = await Promise.all(
    (opts.ports ?? DEFAULT_DISCOVERY_PORTS).map(async (port): Promise<FoundServer | undefined> => {
      const origin = `http://${host}:${port}`;
      const listed = await get(`${origin}/v1/models`);
      const data = Array.isArray(listed?.data) ? (listed.data as Json[]) : undefined;
      if (!data) return undefined;
      const ids = data.map((m) => m?.id).filter((id): id is string => typeof id === "string");
      const owner = data.find((m) => typeof m?.owned_by === "string")?.owned_by;
      const baseUrl = `${origin}/v1`;
      if (owner === "llamacpp")
        return {
          name: "llama.cpp's server",
          baseUrl,
          how: `${origin}/v1/models names "llamacpp" as the owner`,
          models: ids,
        };
      if (owner === "vllm" || data.some((m) => typeof m?.max_model_len === "number"))
        return { name: "vLLM", baseUrl, how: `${origin}/v1/models names "vllm" as the owner`, models: ids };
      const lmstudio = await get(`${origin}/api/v0/models`);
      if (Array.isArray(lmstudio?.data)) {
        const llms = (lmstudio.data as Json[]).filter((m) => m?.type !== "embeddings");
        const loaded = llms.filter((m) => m?.state === "loaded").map((m) => m.id);
        const rest = llms.filter((m) => m?.state !== "loaded").map((m) => m.id);
        const models = [...loaded, ...rest].filter((id): id is string => typeof id === "string");
        return {
          name: "LM Studio",
          baseUrl,
          how: `${origin}/api/v0/models answered`,
          models: models.length ? models : ids,
        };
      }
      return { name: "an OpenAI-compatible server", baseUrl, how: `${origin}/v1/models answered`, models: ids };
    }),
  );
  return found.filter((f): f is FoundServer => f !== undefined);
}

/** The message's lines: each server, how it was found, and the command line that uses it. */
export function describeFound(found: readonly FoundServer[]): string {
  return found
    .map((f) => {
      const model = f.models[0] ? ` --model ${f.models[0]}` : "";
      return `${f.name} at ${f.baseUrl} (${f.how}): agent0 --provider openai --base-url ${f.baseUrl}${model}`;
    })
    .join("\n");
}

/**
 * Whether an OpenAI-compatible base URL is an Ollama: its own API answers beside /v1 (GET
 * /api/version, ollama-wire.md §8). Ollama's /v1 cannot set num_ctx (docs/api/openai-compatibility.mdx).
 */
export async function isOllama(baseUrl: string, fetchFn: typeof fetch = fetch): Promise<boolean> {
  try {
    const origin = baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
    const res = await fetchFn(`${origin}/api/version`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!res.ok) return false;
    const body = (await res.json()) as { version?: unknown } | null;
    return typeof body?.version === "string";
  } catch {
    return false;
  }
}
