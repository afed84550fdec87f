// OpenAI-compatible chat.completions (OpenAI, vLLM, LM Studio, llama.cpp, OpenRouter, Ollama's /v1)
// through the official `openai` package. Tool-call arguments arrive in fragments keyed by index and
// are reassembled here. The SDK does not retry (maxRetries: 0); retry.ts does.
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from "openai";
import { withOverflowHint } from "../overflow.js";
import { errorText, ProviderFailure, refusesConstraint } from "../errors.js";
import { hostedStream } from "../hosted-stream.js";
import { mergeToolName, parseToolArgs } from "../tool-args.js";
import { toOpenAIMessages, toOpenAITools } from "./messages.js";
import { DEFAULT_RETRY, retryAfterMs, type AttemptEvent, type RetryPolicy } from "../retry.js";
import type { ThinkLevel } from "../../protocol/run-config.js";
import type { ChatRequest, ModelInfo, Provider, ProviderError, ProviderEvent } from "../types.js";
import type { Watchdog } from "../watchdog.js";

import { OPENAI_DEFAULT_BASE_URL } from "./provider-constants.js";
import { serverFacts } from "./context-window.js";
import { openAIConstraintSupport } from "./constraint-support.js";

/**
 * The API does not say what a model can do: tools and images are assumed (the config's
 * `vision: false` says otherwise for a text-only model behind a compatible server).
 */
const ASSUMED_CAPABILITIES = ["completion", "tools", "vision"] as const;

export { OPENAI_DEFAULT_BASE_URL };

export interface OpenAIProviderOptions {
  apiKey?: string;
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
}

const KEY_HINT = "Set OPENAI_API_KEY to a key the server accepts.";

function classify(err: unknown, ctx: { model: string; baseUrl: string }): AttemptEvent {
  if (err instanceof APIUserAbortError)
    return { type: "error", error: { kind: "aborted", message: "The request was stopped." } };
  if (err instanceof APIConnectionError) {
    return {
      type: "error",
      error: {
        kind: "unreachable",
        message: `Cannot reach the OpenAI-compatible server at ${ctx.baseUrl}`,
        hint: "Check that it is running, and OPENAI_BASE_URL.",
      },
    };
  }
  if (!(err instanceof APIError)) return { type: "error", error: { kind: "stream", message: errorText(err) } };
  const body = err.error as { message?: string } | undefined;
  const detail = body?.message ?? err.message;
  const status = err.status;
  if (status === undefined) return { type: "error", error: { kind: "stream", message: detail } };
  const e = (error: ProviderError): AttemptEvent => ({ type: "error", error: { ...error, status } });
  if (status === 401)
    return e({
      kind: "auth",
      message: `The server at ${ctx.baseUrl} rejected the API key in OPENAI_API_KEY: ${detail}`,
      hint: KEY_HINT,
    });
  if (status === 403)
    return e({ kind: "auth", message: `The server at ${ctx.baseUrl} refused the key in OPENAI_API_KEY: ${detail}` });
  if (status === 404)
    return e({
      kind: "model-not-found",
      message: `Model '${ctx.model}' was not found at ${ctx.baseUrl}: ${detail}`,
      hint: "Check the model name.",
    });
  if (status === 429)
    return {
      type: "retryable-error",
      reason: "rate limited",
      retryAfterMs: retryAfterMs(err.headers),
      error: { kind: "rate-limit", message: `Rate limited: ${detail}`, status },
    };
  if (status >= 500) {
    return {
      type: "retryable-error",
      reason: `server error ${status}`,
      retryAfterMs: retryAfterMs(err.headers),
      error: { kind: "server", message: `The server answered ${status}: ${detail}`, status },
    };
  }
  if (status === 400 && /does not support tools/i.test(detail)) return e({ kind: "no-tools", message: detail });
  if (refusesConstraint(status, detail)) return e({ kind: "no-constraint", message: detail });
  return e(withOverflowHint({ kind: "server", message: `The server answered ${status}: ${detail}` }));
}

/**
 * `reasoning_effort` (platform.openai.com/docs/api-reference/chat/create: low, medium, high; llama.cpp
 * hands it to the chat template, ggml-org/llama.cpp#15494). "off" is the template's
 * `enable_thinking: false` on local servers (llama.cpp's `chat_template_kwargs`, ggml-org/llama.cpp#13196;
 * vLLM and SGLang take the same field), which OpenAI's own API would refuse as unknown.
 */
function openAIThink(level: ThinkLevel, baseUrl: string): Record<string, unknown> {
  switch (level) {
    case "off":
      return baseUrl === OPENAI_DEFAULT_BASE_URL ? {} : { chat_template_kwargs: { enable_thinking: false } };
    case "on":
      return { reasoning_effort: "medium" };
    case "max":
      return { reasoning_effort: "high" };
    default:
      return { reasoning_effort: level };
  }
}

export function createOpenAIProvider(opts: OpenAIProviderOptions): Provider {
  const baseUrl = (opts.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry };
  // Local servers (LM Studio, llama.cpp, vLLM) usually need no key, but the SDK insists on one.
  const apiKey = opts.apiKey || (baseUrl === OPENAI_DEFAULT_BASE_URL ? undefined : "no-key");
  const client = apiKey
    ? new OpenAI({
        apiKey,
        baseURL: baseUrl,
        organization: null,
        project: null,
        maxRetries: 0,
        logLevel: "off",
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
      })
    : undefined;
  const missingKey: ProviderError = { kind: "auth", message: "OPENAI_API_KEY is not set", hint: KEY_HINT };

  async function* attempt(req: ChatRequest, signal: AbortSignal, watchdog: Watchdog): AsyncGenerator<AttemptEvent> {
    if (!client) {
      yield { type: "error", error: missingKey };
      return;
    }
    const params: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
      model: req.model,
      messages: toOpenAIMessages(req.messages),
      stream: true,
      stream_options: { include_usage: true },
    };
    if (req.tools.length > 0) params.tools = toOpenAITools(req.tools);
    if (req.temperature !== undefined) params.temperature = req.temperature;
    if (req.think !== undefined) Object.assign(params, openAIThink(req.think, baseUrl));
    // llama.cpp's server reads `id_slot` from the body (server-context.cpp); others ignore it.
    if (req.slot !== undefined) Object.assign(params, { id_slot: req.slot });
    // llama.cpp's server, vLLM, SGLang and LM Studio decode under the schema's grammar.
    if (req.constraint) {
      const { name, schema } = req.constraint;
      params.response_format = { type: "json_schema", json_schema: { name, schema, strict: true } };
    }
    const calls = new Map<number, { id: string; name: string; args: string }>();
    let finished = false;
    let promptTokens = 0;
    let completionTokens = 0;
    let cachedTokens: number | undefined;
    try {
      watchdog.kick(req.idleTimeoutMs);
      const stream = await client.chat.completions.create(params, { signal });
      const offered = req.tools.map((t) => t.name);
      for await (const chunk of stream) {
        watchdog.kick(req.idleTimeoutMs);
        if (chunk.usage) {
          promptTokens = chunk.usage.prompt_tokens ?? 0;
          completionTokens = chunk.usage.completion_tokens ?? 0;
          cachedTokens = chunk.usage.prompt_tokens_details?.cached_tokens ?? cachedTokens;
        }
        // llama.cpp's server adds `timings` to its last chunk; cache_n is the prompt read from its
        // cache (ggml-org/llama.cpp#15827).
        const timings = (chunk as { timings?: { cache_n?: unknown } }).timings;
        if (typeof timings?.cache_n === "number") cachedTokens ??= timings.cache_n;
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta as typeof choice.delta & {
          reasoning?: string | null;
          reasoning_content?: string | null;
        };
        const reasoning = delta?.reasoning ?? delta?.reasoning_content;
        if (reasoning) yield { type: "thinking", delta: reasoning };
        if (delta?.content) yield { type: "text", delta: delta.content };
        for (const tc of delta?.tool_calls ?? []) {
          const slot = calls.get(tc.index) ?? { id: "", name: "", args: "" };
          if (tc.id) slot.id = tc.id;
          if (tc.function?.name) slot.name = mergeToolName(slot.name, tc.function.name, offered);
          if (tc.function?.arguments) slot.args += tc.function.arguments;
          calls.set(tc.index, slot);
        }
        if (choice.finish_reason) finished = true;
      }
      if (signal.aborted) return;
      if (!finished) {
        yield { type: "error", error: { kind: "stream", message: "the connection closed before the answer finished" } };
        return;
      }
      for (const [index, c] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
        const parsed = parseToolArgs(c.args);
        if (!parsed.ok) yield { type: "notice", text: `The arguments of ${c.name} were unusable: ${parsed.error}` };
        const args = parsed.ok ? parsed.args : {};
        yield { type: "tool-call", call: { id: c.id || `call_${index}`, name: c.name, args } };
      }
      yield {
        type: "done",
        promptTokens:
          cachedTokens !== undefined && promptTokens < cachedTokens ? promptTokens + cachedTokens : promptTokens,
        completionTokens,
        ...(cachedTokens !== undefined ? { cachedTokens } : {}),
      };
    } catch (err) {
      if (!signal.aborted) yield classify(err, { model: req.model, baseUrl });
    } finally {
      watchdog.stop();
    }
  }

  const stream = (req: ChatRequest): AsyncGenerator<ProviderEvent> =>
    hostedStream(req, "The server", policy, (signal, watchdog) => attempt(req, signal, watchdog));

  async function listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    if (!client) throw new ProviderFailure(missingKey);
    try {
      const page = await client.models.list({ signal });
      return page.data.map((m) => ({ name: m.id, capabilities: [...ASSUMED_CAPABILITIES] }));
    } catch (err) {
      const e = classify(err, { model: "", baseUrl });
      throw new ProviderFailure(
        e.type === "error" || e.type === "retryable-error" ? e.error : { kind: "server", message: errorText(err) },
      );
    }
  }

  /** The chat API says nothing about context length; the caller keeps its configured cap. */
  async function modelInfo(model: string, signal?: AbortSignal): Promise<ModelInfo> {
    const info: ModelInfo = { name: model, capabilities: [...ASSUMED_CAPABILITIES] };
    const facts = await serverFacts({ baseUrl, apiKey: opts.apiKey, model, fetch: opts.fetch, signal });
    if (facts.window) info.contextLength = facts.window;
    if (facts.slots) info.slots = facts.slots;
    return info;
  }

  const constraintSupport = (_model: string, signal?: AbortSignal) =>
    openAIConstraintSupport({
      baseUrl,
      ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
      ...(signal ? { signal } : {}),
    });

  return { name: "openai", stream, listModels, modelInfo, constraintSupport };
}
