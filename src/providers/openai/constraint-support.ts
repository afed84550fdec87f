// Whether an OpenAI-compatible server decodes under response_format's JSON schema, as it says of
// itself (each answer beside its /v1 routes); undefined where it says nothing (OpenAI's own API,
// whose older models refuse it: the refusal teaches it). Never throws.
import type { ConstraintSupport } from "../types.js";
import { OPENAI_DEFAULT_BASE_URL } from "./provider-constants.js";
import { ollamaTakesSchema } from "../ollama/constraint-support.js";

const PROBE_TIMEOUT_MS = 3_000;
type Json = Record<string, unknown>;

export async function openAIConstraintSupport(opts: {
  baseUrl: string;
  apiKey?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}): Promise<ConstraintSupport | undefined> {
  if (opts.baseUrl === OPENAI_DEFAULT_BASE_URL) return undefined;
  const get = async (url: string): Promise<Json | undefined> => {
    const timeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
    try {
      const res = await (opts.fetch ?? fetch)(url, {
        headers: opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {},
        signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
      });
      if (!res.ok) return undefined;
      const body: unknown = await res.json();
      return body && typeof body === "object" ? (body as Json) : undefined;
    } catch {
      return undefined;
    }
  };
  const origin = opts.baseUrl.replace(/\/v1$/, "");
  const listed = await get(`${opts.baseUrl}/models`);
  const owners = Array.isArray(listed?.data) ? (listed.data as Json[]).map((m) => m?.owned_by) : [];
  // llama.cpp's server: response_format json_schema and `grammar` (tools/server/README.md).
  if (owners.includes("llamacpp") || (await get(`${origin}/props`))?.default_generation_settings)
    return { supported: true, why: "llama.cpp's server" };
  // vLLM: structured outputs through response_format (docs.vllm.ai, features/structured_outputs).
  if (owners.includes("vllm")) return { supported: true, why: "vLLM" };
  // SGLang: on unless started with --grammar-backend none (docs.sglang.ai, structured outputs).
  if (owners.includes("sglang")) {
    const backend = (await get(`${origin}/get_server_info`))?.grammar_backend;
    return backend === "none"
      ? { supported: false, why: "SGLang runs with --grammar-backend none" }
      : { supported: true, why: "SGLang" };
  }
  // LM Studio: response_format json_schema (lmstudio.ai/docs, structured-output). Its own REST API
  // tells its models' `state` (loaded or not), which an OpenAI-style list does not.
  const lmstudio = (await get(`${origin}/api/v0/models`))?.data;
  if (Array.isArray(lmstudio) && lmstudio.some((m: Json) => typeof m?.state === "string"))
    return { supported: true, why: "LM Studio" };
  const ollama = await get(`${origin}/api/version`);
  if (typeof ollama?.version === "string") return ollamaTakesSchema(ollama.version);
  return undefined;
}
