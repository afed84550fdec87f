// Anthropic Messages API through @anthropic-ai/sdk: raw SSE events, tool_use input reassembled from
// input_json_delta, thinking when req.think is set. The SDK does not retry (maxRetries: 0); retry.ts does.
import Anthropic, { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { toAnthropic, toAnthropicTools } from "./messages.js";
import { errorText, ProviderFailure } from "../errors.js";
import { hostedStream } from "../hosted-stream.js";
import { parseToolArgs } from "../tool-args.js";
import { DEFAULT_RETRY, retryAfterMs, type AttemptEvent, type RetryPolicy } from "../retry.js";
import type { ThinkLevel } from "../../protocol/run-config.js";
import type { ChatRequest, ModelInfo, Provider, ProviderError, ProviderEvent } from "../types.js";
import type { Watchdog } from "../watchdog.js";

export interface AnthropicProviderOptions {
  apiKey?: string;
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
  /** max_tokens of each answer; default 8192, plus the thinking budget of the level (THINKING_BUDGET). */
  maxTokens?: number;
  fetch?: typeof fetch;
}

const KEY_HINT = "Set ANTHROPIC_API_KEY to a valid key from console.anthropic.com.";

function missingKey(): ProviderError {
  return { kind: "auth", message: "ANTHROPIC_API_KEY is not set", hint: KEY_HINT };
}

function classify(err: unknown, ctx: { model: string; baseUrl: string }): AttemptEvent {
  if (err instanceof APIUserAbortError)
    return { type: "error", error: { kind: "aborted", message: "The request was stopped." } };
  if (err instanceof APIConnectionError) {
    return {
      type: "error",
      error: {
        kind: "unreachable",
        message: `Cannot reach the Anthropic API at ${ctx.baseUrl}`,
        hint: "Check the network, or ANTHROPIC_BASE_URL.",
      },
    };
  }
  if (!(err instanceof APIError)) return { type: "error", error: { kind: "stream", message: errorText(err) } };
  const body = err.error as { error?: { type?: string; message?: string } } | undefined;
  const type = body?.error?.type;
  const detail = body?.error?.message ?? err.message;
  const status = err.status;
  const withStatus = (e: ProviderError): ProviderError => (status === undefined ? e : { ...e, status });
  if (status === 401 || type === "authentication_error") {
    return {
      type: "error",
      error: withStatus({
        kind: "auth",
        message: `Anthropic rejected the API key in ANTHROPIC_API_KEY: ${detail}`,
        hint: KEY_HINT,
      }),
    };
  }
  if (status === 403 || type === "permission_error") {
    return {
      type: "error",
      error: withStatus({
        kind: "auth",
        message: `Anthropic refused the request for the key in ANTHROPIC_API_KEY: ${detail}`,
      }),
    };
  }
  if (status === 404 || type === "not_found_error") {
    return {
      type: "error",
      error: withStatus({
        kind: "model-not-found",
        message: `Anthropic does not know model '${ctx.model}': ${detail}`,
        hint: "Check the model name.",
      }),
    };
  }
  if (status === 429 || type === "rate_limit_error") {
    return {
      type: "retryable-error",
      reason: "rate limited",
      retryAfterMs: retryAfterMs(err.headers),
      error: withStatus({ kind: "rate-limit", message: `Anthropic rate limit: ${detail}` }),
    };
  }
  if (status === 529 || type === "overloaded_error") {
    return {
      type: "retryable-error",
      reason: "server overloaded",
      retryAfterMs: retryAfterMs(err.headers),
      error: withStatus({ kind: "server", message: `Anthropic is overloaded: ${detail}` }),
    };
  }
  if (status !== undefined && status >= 500) {
    return {
      type: "retryable-error",
      reason: `server error ${status}`,
      retryAfterMs: retryAfterMs(err.headers),
      error: { kind: "server", message: `Anthropic answered ${status}: ${detail}`, status },
    };
  }
  if (status === undefined) return { type: "error", error: { kind: "stream", message: detail } };
  return { type: "error", error: { kind: "server", message: `Anthropic answered ${status}: ${detail}`, status } };
}

/** The SDK console.warns about deprecated models from inside create(), synchronously; the terminal
 *  belongs to the TUI, so those lines become notices instead. */
function captureWarnings<T>(fn: () => T): { value: T; warnings: string[] } {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  try {
    return { value: fn(), warnings };
  } finally {
    console.warn = original;
  }
}

const ANSWER_TOKENS = 8192;
/**
 * Extended thinking's budget_tokens per level (at least 1,024: docs.anthropic.com, extended thinking),
 * on top of the answer's tokens. The steps follow Claude Code's "think" (4,000), "think hard" (10,000)
 * and "ultrathink" (31,999).
 */
const THINKING_BUDGET: Record<ThinkLevel, number | undefined> = {
  off: undefined,
  low: 4_000,
  on: 8_192,
  medium: 10_000,
  high: 16_000,
  max: 31_999,
};

export function createAnthropicProvider(opts: AnthropicProviderOptions): Provider {
  const baseUrl = (opts.baseUrl ?? "https://api.anthropic.com").replace(/\/+$/, "");
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry };
  const client = opts.apiKey
    ? new Anthropic({
        apiKey: opts.apiKey,
        baseURL: baseUrl,
        maxRetries: 0,
        logLevel: "off",
        openTelemetry: false,
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
      })
    : undefined;

  async function* attempt(req: ChatRequest, signal: AbortSignal, watchdog: Watchdog): AsyncGenerator<AttemptEvent> {
    if (!client) {
      yield { type: "error", error: missingKey() };
      return;
    }
    const { system, messages } = toAnthropic(req.messages);
    const budget = req.think === undefined ? undefined : THINKING_BUDGET[req.think];
    const params: Anthropic.MessageCreateParamsStreaming = {
      model: req.model,
      max_tokens: opts.maxTokens ?? (budget ?? 0) + ANSWER_TOKENS,
      messages,
      stream: true,
    };
    if (system) params.system = system;
    if (req.tools.length > 0) params.tools = toAnthropicTools(req.tools);
    // No temperature: this SDK's Messages params no longer declare it, so it is not sent.
    if (budget)
      params.thinking = { type: "enabled", budget_tokens: Math.min(budget, Math.floor(params.max_tokens / 2)) };
    const tools = new Map<number, { id: string; name: string; json: string }>();
    let promptTokens = 0;
    let completionTokens = 0;
    let cachedTokens: number | undefined;
    let stopped = false;
    try {
      watchdog.kick(req.idleTimeoutMs);
      const { value: pending, warnings } = captureWarnings(() => client.messages.create(params, { signal }));
      for (const text of warnings) yield { type: "notice", text };
      const stream = await pending;
      for await (const event of stream) {
        watchdog.kick(req.idleTimeoutMs);
        if (event.type === "message_start") {
          const u = event.message.usage;
          promptTokens =
            (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
          completionTokens = u.output_tokens ?? 0;
          cachedTokens = u.cache_read_input_tokens ?? undefined;
        } else if (event.type === "content_block_start") {
          const block = event.content_block;
          if (block.type === "tool_use") tools.set(event.index, { id: block.id, name: block.name, json: "" });
          else if (block.type === "text" && block.text) yield { type: "text", delta: block.text };
          else if (block.type === "thinking" && block.thinking) yield { type: "thinking", delta: block.thinking };
        } else if (event.type === "content_block_delta") {
          const d = event.delta;
          if (d.type === "text_delta" && d.text) yield { type: "text", delta: d.text };
          else if (d.type === "thinking_delta" && d.thinking) yield { type: "thinking", delta: d.thinking };
          else if (d.type === "signature_delta" && d.signature)
            yield { type: "thinking-signature", signature: d.signature };
          else if (d.type === "input_json_delta") {
            const t = tools.get(event.index);
            if (t) t.json += d.partial_json;
          }
        } else if (event.type === "content_block_stop") {
          const t = tools.get(event.index);
          if (!t) continue;
          tools.delete(event.index);
          const parsed = parseToolArgs(t.json);
          if (!parsed.ok) yield { type: "notice", text: `The arguments of ${t.name} were unusable: ${parsed.error}` };
          yield { type: "tool-call", call: { id: t.id, name: t.name, args: parsed.ok ? parsed.args : {} } };
        } else if (event.type === "message_delta") {
          if (event.usage.output_tokens != null) completionTokens = event.usage.output_tokens;
          if (event.usage.input_tokens != null) promptTokens = event.usage.input_tokens;
        } else if (event.type === "message_stop") {
          stopped = true;
          yield { type: "done", promptTokens, completionTokens, ...(cachedTokens ? { cachedTokens } : {}) };
          return;
        }
      }
      if (!stopped && !signal.aborted)
        yield { type: "error", error: { kind: "stream", message: "the connection closed before the answer finished" } };
    } catch (err) {
      if (!signal.aborted) yield classify(err, { model: req.model, baseUrl });
    } finally {
      // A retry wait is not silence from the server.
      watchdog.stop();
    }
  }

  const stream = (req: ChatRequest): AsyncGenerator<ProviderEvent> =>
    hostedStream(req, "Anthropic", policy, (signal, watchdog) => attempt(req, signal, watchdog));

  /**
   * The models API tells each model's input window and capabilities. A server without it (an
   * Anthropic-compatible proxy) or a missing key falls back to the documented 200k window: the
   * 1M window needs a beta header this client does not send.
   */
  async function modelInfo(model: string, signal?: AbortSignal): Promise<ModelInfo> {
    if (!client) return fromAnthropicModel(model);
    try {
      return fromAnthropicModel(model, await client.models.retrieve(model, {}, { signal }));
    } catch {
      return fromAnthropicModel(model);
    }
  }

  async function listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    if (!client) throw new ProviderFailure(missingKey());
    try {
      const page = await client.models.list({}, { signal });
      return page.data.map((m) => fromAnthropicModel(m.id, m));
    } catch (err) {
      const e = classify(err, { model: "", baseUrl });
      throw new ProviderFailure(
        e.type === "error" || e.type === "retryable-error" ? e.error : { kind: "server", message: errorText(err) },
      );
    }
  }

  return { name: "anthropic", stream, listModels, modelInfo };
}

/** Claude's standard input window (every current model; 1M only behind a beta header). */
export const ANTHROPIC_DEFAULT_WINDOW = 200_000;

/** A model as the models API describes it; fields a proxy leaves out fall back to the defaults. */
export function fromAnthropicModel(name: string, m?: Partial<Anthropic.ModelInfo>): ModelInfo {
  const caps = m?.capabilities ?? undefined;
  const capabilities = ["completion", "tools"];
  if (!caps || caps.thinking?.supported !== false) capabilities.push("thinking");
  if (!caps || caps.image_input?.supported !== false) capabilities.push("vision");
  const window = m?.max_input_tokens;
  return {
    name,
    contextLength: typeof window === "number" && window > 0 ? window : ANTHROPIC_DEFAULT_WINDOW,
    capabilities,
  };
}
