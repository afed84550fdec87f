// The default provider: Ollama's /api/chat. Requests go over http.ts (our AbortSignal works at every
// moment; fetch's undici is never loaded) and are read by fetch.ts: the chat stream with each line
// parsed once and an idle timeout, metadata and warm-up as JSON. The `ollama` package gives the
// wire types.
//
// Timeouts: before the response headers a request may wait max(idleTimeoutMs, 5 min), because Ollama
// sends its headers only after loading the model and reading the prompt; after them, no bytes for
// idleTimeoutMs ends the request with a "timeout" error.
import type { ThinkLevel } from "../../protocol/run-config.js";
import type { ChatRequest as OllamaChatRequest, ChatResponse, ListResponse, ShowResponse, Tool } from "ollama";
import { ProviderFailure } from "../errors.js";
import { httpFetch, type HttpFetch } from "../http.js";
import { ndjsonObjects, ollamaJson, responseError, type OllamaFetchHooks } from "./fetch.js";
import { ollamaFailure } from "./errors.js";
import { fromOllamaToolCall, toOllamaMessages, toOllamaTools } from "./messages.js";
import type { ChatRequest, ConstraintSupport, ModelInfo, Provider, ProviderEvent } from "../types.js";
import { ollamaTakesSchema } from "./constraint-support.js";
import { Watchdog } from "../watchdog.js";

export { resolveOllamaHost, DEFAULT_OLLAMA_HOST } from "./host.js";

/** How long a request may wait for its first byte while the model loads. */
export const LOAD_ALLOWANCE_MS = 5 * 60_000;
/** /api/tags and /api/show answer from disk; longer than this means something is wrong. */
export const METADATA_TIMEOUT_MS = 20_000;

export interface OllamaProviderOptions {
  /** A resolved base URL, see resolveOllamaHost(). */
  host: string;
  /** The transport; default: http.ts (no header timeout). */
  fetch?: HttpFetch;
  /** Wait allowed for the first byte; default LOAD_ALLOWANCE_MS (never less than the idle timeout). */
  loadAllowanceMs?: number;
  /** Sent as a Bearer token on every request (see ollamaApiKey(): only ever for https://ollama.com). */
  apiKey?: string;
}

/**
 * $OLLAMA_API_KEY for Ollama's own cloud, as ollama-js sends it: only to https://ollama.com, so a
 * host set by a project's config (or a typo) never receives the user's key.
 */
/**
 * Ollama's `think`: a boolean, or a level for the models that take one (docs.ollama.com/capabilities/
 * thinking: gpt-oss; agent/model-info.ts has turned a level into "on" for a boolean-only model).
 */
function ollamaThink(level: ThinkLevel): OllamaChatRequest["think"] {
  if (level === "off" || level === "on") return level === "on";
  return level as OllamaChatRequest["think"];
}

export function ollamaApiKey(host: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    const url = new URL(host);
    return url.protocol === "https:" && url.hostname === "ollama.com" ? env.OLLAMA_API_KEY || undefined : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `truncate: false`: an Ollama that would drop the oldest messages to fit num_ctx (api/types.go
 * ChatRequest.Truncate, on by default) refuses with a 400 instead, which agent0 compacts for; a
 * server from before the field ignores it, as Go's JSON decoding ignores unknown fields.
 */
type ChatBody = OllamaChatRequest & { stream: true; truncate: false };

function chatBody(req: ChatRequest): ChatBody {
  const options: Record<string, number> = { num_ctx: req.numCtx };
  if (req.temperature !== undefined) options.temperature = req.temperature;
  const body: ChatBody = {
    model: req.model,
    messages: toOllamaMessages(req.messages),
    options,
    stream: true,
    truncate: false,
  };
  if (req.tools.length > 0) body.tools = toOllamaTools(req.tools) as unknown as Tool[];
  if (req.keepAlive !== undefined) body.keep_alive = req.keepAlive;
  if (req.think !== undefined) body.think = ollamaThink(req.think);
  // Ollama's structured outputs: `format` takes a JSON schema and decodes under its grammar.
  if (req.constraint) body.format = req.constraint.schema;
  return body;
}

function* chunkEvents(chunk: ChatResponse): Generator<ProviderEvent> {
  const m = chunk.message;
  if (m?.thinking) yield { type: "thinking", delta: m.thinking };
  if (m?.content) yield { type: "text", delta: m.content };
  for (const call of m?.tool_calls ?? []) yield { type: "tool-call", call: fromOllamaToolCall(call) };
}

/**
 * Ollama's counts: prompt_eval_count is the whole prompt, cached tokens included, and
 * prompt_eval_cached_count the cached part (ollama/ollama#17943). A server before ollama#16428
 * counted only the tokens it evaluated: a count below the cached part is read as that.
 */
function doneEvent(chunk: ChatResponse & { prompt_eval_cached_count?: number }): ProviderEvent {
  const evaluated = chunk.prompt_eval_count ?? 0;
  const cached = chunk.prompt_eval_cached_count;
  const event: ProviderEvent = {
    type: "done",
    promptTokens: cached !== undefined && evaluated < cached ? evaluated + cached : evaluated,
    completionTokens: chunk.eval_count ?? 0,
  };
  if (typeof cached === "number") event.cachedTokens = cached;
  return event;
}

/**
 * A Modelfile's `PARAMETER num_ctx 16384`, as /api/show's `parameters` lists it: one "name value"
 * line per parameter (ollama/ollama api/types.go ShowResponse).
 */
export function modelfileNumCtx(parameters: unknown): number | undefined {
  if (typeof parameters !== "string") return undefined;
  const m = /^\s*num_ctx\s+(\d+)\s*$/m.exec(parameters);
  return m ? Number(m[1]) : undefined;
}

function malformedNotice(line: string): string {
  const shown = line.length > 80 ? `${line.slice(0, 80)}…` : line;
  return `Skipped a line from Ollama that is not JSON: ${shown}`;
}

export function createOllamaProvider(opts: OllamaProviderOptions): Provider {
  const host = opts.host.replace(/\/+$/, "");
  const base = opts.fetch ?? httpFetch;
  const auth: Record<string, string> = opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {};

  async function metadata<T>(
    model: string | undefined,
    signal: AbortSignal | undefined,
    path: string,
    body?: object,
  ): Promise<T> {
    const state = { headersSeen: false };
    const timeout = AbortSignal.timeout(METADATA_TIMEOUT_MS);
    try {
      return (await ollamaJson(
        base,
        `${host}${path}`,
        {
          method: body ? "POST" : "GET",
          headers: auth,
          body: body ? JSON.stringify(body) : undefined,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        },
        { onHeaders: () => (state.headersSeen = true) },
      )) as T;
    } catch (err) {
      const timedOut = !signal?.aborted && (err as Error)?.name === "TimeoutError";
      throw new ProviderFailure(
        ollamaFailure(err, {
          host,
          model,
          userAborted: signal?.aborted ?? false,
          timedOutAfterMs: timedOut ? METADATA_TIMEOUT_MS : undefined,
          headersSeen: state.headersSeen,
        }),
      );
    }
  }

  async function modelInfo(model: string, signal?: AbortSignal): Promise<ModelInfo> {
    const show = await metadata<ShowResponse>(model, signal, "/api/show", { model });
    const info = (show.model_info ?? {}) as unknown as Record<string, unknown>;
    const arch = info["general.architecture"];
    let contextLength = typeof arch === "string" ? info[`${arch}.context_length`] : undefined;
    if (typeof contextLength !== "number")
      contextLength = Object.entries(info).find(
        ([k, v]) => k.endsWith(".context_length") && typeof v === "number",
      )?.[1];
    const out: ModelInfo = { name: model, capabilities: Array.isArray(show.capabilities) ? show.capabilities : [] };
    if (typeof contextLength === "number") out.contextLength = contextLength;
    // gpt-oss (architecture "gptoss") reasons at a level and ignores true/false; other thinking
    // models take only a boolean (docs.ollama.com/capabilities/thinking).
    if (arch === "gptoss") out.thinkLevels = true;
    const configured = modelfileNumCtx(show.parameters);
    if (configured !== undefined) out.configuredWindow = configured;
    const named = show as { renderer?: unknown; parser?: unknown };
    if (typeof named.renderer === "string" && named.renderer) out.renderer = named.renderer;
    if (typeof named.parser === "string" && named.parser) out.parser = named.parser;
    return out;
  }

  async function listModels(signal?: AbortSignal, opts?: { names?: boolean }): Promise<ModelInfo[]> {
    const tags = await metadata<ListResponse>(undefined, signal, "/api/tags");
    if (opts?.names) return (tags.models ?? []).map((m) => ({ name: m.name, size: m.size, capabilities: [] }));
    return Promise.all(
      (tags.models ?? []).map(async (m) => {
        const listed = (m as { capabilities?: unknown }).capabilities;
        const fallback: ModelInfo = {
          name: m.name,
          size: m.size,
          capabilities: Array.isArray(listed) ? (listed as string[]) : [],
        };
        try {
          return { ...(await modelInfo(m.name, signal)), size: m.size };
        } catch {
          return fallback;
        }
      }),
    );
  }

  async function* stream(req: ChatRequest): AsyncGenerator<ProviderEvent> {
    if (req.signal.aborted) {
      yield {
        type: "error",
        error: ollamaFailure(req.signal.reason, { host, model: req.model, userAborted: true, headersSeen: false }),
      };
      return;
    }
    const controller = new AbortController();
    const forward = () => controller.abort(req.signal.reason);
    req.signal.addEventListener("abort", forward, { once: true });
    const loadMs = Math.max(req.idleTimeoutMs, opts.loadAllowanceMs ?? LOAD_ALLOWANCE_MS);
    const state: { headersSeen: boolean; serverErrorLine?: string } = { headersSeen: false };
    const notices: string[] = [];
    const watchdog = new Watchdog(() => controller.abort(new Error("idle timeout")));
    const hooks: OllamaFetchHooks = {
      onBytes: () => watchdog.kick(req.idleTimeoutMs),
      onMalformedLine: (line) => notices.push(malformedNotice(line)),
      onErrorLine: (text) => (state.serverErrorLine = text),
    };
    watchdog.kick(loadMs);
    try {
      // The stream is read here, not through ollama-js: each line is decoded and parsed once
      // (ollama-js would parse what our NDJSON filter had already parsed and re-encoded).
      const res = await base(`${host}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...auth },
        body: JSON.stringify(chatBody(req)),
        signal: controller.signal,
      });
      state.headersSeen = true;
      watchdog.kick(req.idleTimeoutMs);
      if (!res.ok) throw await responseError(res);
      if (!res.body) throw new Error("Missing body");
      for await (const value of ndjsonObjects(res.body, hooks)) {
        const chunk = value as ChatResponse & { error?: unknown };
        for (const text of notices.splice(0)) yield { type: "notice", text };
        if (typeof chunk.error === "string") throw new Error(chunk.error);
        yield* chunkEvents(chunk);
        if (chunk.done) {
          yield doneEvent(chunk);
          return;
        }
      }
      throw new Error("Did not receive done or success response in stream.");
    } catch (err) {
      for (const text of notices.splice(0)) yield { type: "notice", text };
      const error = ollamaFailure(err, {
        host,
        model: req.model,
        userAborted: req.signal.aborted,
        timedOutAfterMs: watchdog.fired ? (state.headersSeen ? req.idleTimeoutMs : loadMs) : undefined,
        headersSeen: state.headersSeen,
        serverErrorLine: state.serverErrorLine,
      });
      yield { type: "error", error };
    } finally {
      // Leaving the loop early (break, an exception in the consumer) must close the connection too.
      watchdog.stop();
      req.signal.removeEventListener("abort", forward);
      controller.abort();
    }
  }

  /** `messages: []` loads the model and answers `done_reason: "load"` (ollama-wire.md §1.6). */
  async function warm(model: string, numCtx: number, keepAlive?: string | number, signal?: AbortSignal): Promise<void> {
    const allowance = AbortSignal.timeout(opts.loadAllowanceMs ?? LOAD_ALLOWANCE_MS);
    const body: OllamaChatRequest & { stream: false } = {
      model,
      messages: [],
      options: { num_ctx: numCtx },
      stream: false,
    };
    if (keepAlive !== undefined) body.keep_alive = keepAlive;
    await ollamaJson(base, `${host}/api/chat`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, allowance]) : allowance,
    });
  }

  /** From /api/version (structured outputs since 0.5.0); undefined when it does not answer. */
  async function constraintSupport(_model: string, signal?: AbortSignal): Promise<ConstraintSupport | undefined> {
    try {
      const about = await metadata<{ version?: unknown }>(undefined, signal, "/api/version");
      return typeof about.version === "string" ? ollamaTakesSchema(about.version) : undefined;
    } catch {
      return undefined;
    }
  }

  return { name: "ollama", stream, listModels, modelInfo, warm, constraintSupport };
}
