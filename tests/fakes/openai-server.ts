// A fake OpenAI-compatible chat.completions endpoint (POST /v1/chat/completions, SSE): `data:` chunks
// of chat.completion.chunk, role only in the first, tool-call arguments split across deltas keyed by
// index (as real OpenAI sends them), a finish chunk, a usage chunk when asked, then `data: [DONE]`.
// Replies are used in order; when they run out every request gets a plain "ok".
import type { ServerResponse } from "node:http";
import {
  pause,
  sendFailure,
  sseHead,
  startScriptedServer,
  type HttpFailure,
  type RecordedHttp,
  type RecordingServer,
} from "./sse-server.js";

export interface OpenAIReply {
  text?: string;
  reasoning?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown>; id?: string }[];
  failure?: HttpFailure;
  /** Characters per content delta (default 5) and per arguments fragment (default 6). */
  chunkChars?: number;
  argChunkChars?: number;
  usage?: { prompt: number; completion: number };
  /** End the stream without a finish chunk or [DONE] (how Ollama's /v1 loses a mid-stream error). */
  cutShort?: true;
  /**
   * The whole tool name again on every delta of its call: MiniMax M2.7 through NVIDIA NIM
   * (NousResearch/hermes-agent#12230), GPT-5 (open-webui/open-webui#22235), Anthropic through
   * OpenAI-compatible proxies (continuedev/continue#5849).
   */
  nameEveryDelta?: true;
  /** The tool name split over deltas of this many characters, as Gemini sends it (continuedev/continue#5849). */
  nameChunkChars?: number;
  /** `content: null` on every delta without text, as OpenAI's own API streams tool calls. */
  contentNull?: true;
  /** The thinking as `reasoning_content`: vLLM's reasoning parsers, llama.cpp's server and DeepSeek's API. */
  reasoningContent?: true;
  /** After the text, an `error` object as a data line and the end (vLLM and llama.cpp send errors mid-stream so). */
  errorMidStream?: string;
  /** No usage chunk even when asked (servers that ignore stream_options.include_usage). */
  noUsage?: true;
  /** llama.cpp's `timings` on the last chunk: cache_n, the prompt tokens read from the slot's cache. */
  cacheN?: number;
  delayMs?: number;
}

export interface FakeOpenAI extends RecordingServer {
  setReplies(replies: OpenAIReply[]): void;
}

export const openaiError = (
  status: number,
  message: string,
  type = "invalid_request_error",
  headers?: Record<string, string>,
): OpenAIReply => ({
  failure: { status, body: { error: { message, type, param: null, code: null } }, headers },
});
export const rateLimited = () => openaiError(429, "Rate limit reached for requests", "requests");
export const unauthorized = () => openaiError(401, "Incorrect API key provided: sk-bad.", "invalid_request_error");

function pieces(s: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}

async function play(res: ServerResponse, req: RecordedHttp, r: OpenAIReply): Promise<void> {
  if (r.delayMs) await pause(res, r.delayMs);
  if (res.destroyed) return;
  if (r.failure) return sendFailure(res, r.failure);
  const body = (req.body ?? {}) as { model?: string; stream_options?: { include_usage?: boolean } };
  const base = {
    id: "chatcmpl-417",
    object: "chat.completion.chunk",
    created: 1751919739,
    model: body.model ?? "gpt",
    system_fingerprint: "fp_fake",
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => {
    const rude = r.contentNull && !("content" in delta) ? { content: null, ...delta } : delta;
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: rude, finish_reason: finish }] })}\n\n`);
  };
  sseHead(res);
  chunk({ role: "assistant", content: "" });
  for (const p of pieces(r.reasoning ?? "", r.chunkChars ?? 5))
    chunk(r.reasoningContent ? { reasoning_content: p } : { reasoning: p });
  const text = r.text ?? (r.toolCalls?.length ? "" : "ok");
  for (const p of pieces(text, r.chunkChars ?? 5)) chunk({ content: p });
  (r.toolCalls ?? []).forEach((c, index) => {
    const [first, ...more] = pieces(c.name, r.nameChunkChars ?? c.name.length);
    chunk({
      tool_calls: [
        { index, id: c.id ?? `call_fake${index}`, type: "function", function: { name: first, arguments: "" } },
      ],
    });
    for (const p of more) chunk({ tool_calls: [{ index, function: { name: p } }] });
    for (const p of pieces(JSON.stringify(c.arguments), r.argChunkChars ?? 6))
      chunk({ tool_calls: [{ index, function: { ...(r.nameEveryDelta ? { name: c.name } : {}), arguments: p } }] });
  });
  if (r.cutShort) {
    res.end();
    return;
  }
  if (r.errorMidStream !== undefined) {
    res.end(`data: ${JSON.stringify({ error: { message: r.errorMidStream, type: "server_error", code: 500 } })}\n\n`);
    return;
  }
  if (r.cacheN !== undefined) {
    // ggml-org/llama.cpp server: the finish chunk carries `timings` (cache_n, prompt_n, predicted_n …).
    const prompt = r.usage?.prompt ?? fakePromptTokens(req.body);
    const timings = { cache_n: r.cacheN, prompt_n: prompt - r.cacheN, predicted_n: 9, prompt_ms: 1, predicted_ms: 1 };
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: r.toolCalls?.length ? "tool_calls" : "stop" }], timings })}\n\n`,
    );
  } else chunk({}, r.toolCalls?.length ? "tool_calls" : "stop");
  if (body.stream_options?.include_usage && !r.noUsage) {
    // By default the server read the whole prompt (by the fake's count).
    const u = r.usage ?? { prompt: fakePromptTokens(req.body), completion: 9 };
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion } })}\n\n`,
    );
  }
  res.end("data: [DONE]\n\n");
}

/**
 * Which server to imitate in what it says about a model's context window: OpenAI says nothing;
 * vLLM puts max_model_len in /v1/models; llama.cpp has /props; LM Studio has /api/v0/models/{id}.
 */
export interface FakeOpenAIServer {
  kind: "openai" | "vllm" | "llamacpp" | "lmstudio" | "sglang";
  model: string;
  contextLength?: number;
  /** SGLang's `--grammar-backend` (default "xgrammar"), reported by /get_server_info. */
  grammarBackend?: string;
  /** llama.cpp: how many slots it runs (`-np`): /props `total_slots` and the /slots list. Default 1. */
  slots?: number;
  /** LM Studio 0.4+: also its v1 REST API (/api/v1/models). */
  v1?: true;
  /** LM Studio: the model is not loaded (no loaded instance, no loaded_context_length). */
  notLoaded?: true;
  /**
   * The window the server really holds: a request whose prompt is longer (counted as JSON length / 3,
   * a tokenizer tighter than agent0's estimate) is refused with the kind's own 400 (`overflowRefusal`).
   */
  holds?: number;
}

/**
 * Each server's refusal of a prompt longer than its window, as its code writes it (the wordings
 * and their sources: tests/providers/overflow.test.ts). "openai" answers as vLLM does.
 */
export function overflowRefusal(kind: FakeOpenAIServer["kind"], window: number, prompt: number): OpenAIReply {
  switch (kind) {
    case "llamacpp":
      // ggml-org/llama.cpp tools/server: exceed_context_size_error, with both figures as fields.
      return {
        failure: {
          status: 400,
          body: {
            error: {
              code: 400,
              message: `request (${prompt} tokens) exceeds the available context size (${window} tokens), try increasing it`,
              type: "exceed_context_size_error",
              n_prompt_tokens: prompt,
              n_ctx: window,
            },
          },
        },
      };
    case "sglang":
      return openaiError(
        400,
        `The input (${prompt} tokens) is longer than the model's context length (${window} tokens).`,
        "BadRequestError",
      );
    case "lmstudio":
      // LM Studio 0.4 answers `{"error": "<text>"}` (Gitlawb/openclaude#353).
      return {
        failure: {
          status: 400,
          body: {
            error: `The number of tokens to keep from the initial prompt is greater than the context length (n_keep: ${prompt}>= n_ctx: ${window}). Try to load the model with a larger context length, or provide a shorter input.`,
          },
        },
      };
    case "vllm":
    case "openai":
      return openaiError(
        400,
        `This model's maximum context length is ${window} tokens. However, you requested 0 output tokens and your prompt contains at least ${prompt} input tokens, for a total of at least ${prompt} tokens. Please reduce the length of the input prompt or the number of requested output tokens. (parameter=input_tokens, value=${prompt})`,
        "BadRequestError",
      );
  }
}

/** The fake's count of a request's prompt: tighter than agent0's estimate, as real tokenizers often are. */
export function fakePromptTokens(body: unknown): number {
  const b = (body ?? {}) as { messages?: unknown; tools?: unknown };
  return Math.ceil(JSON.stringify([b.messages ?? [], b.tools ?? []]).length / 3);
}

function modelsList(s: FakeOpenAIServer) {
  const base = { id: s.model, object: "model", created: 1718000000 };
  switch (s.kind) {
    case "openai":
      return [{ ...base, owned_by: "fake" }];
    case "vllm":
      return [
        { ...base, owned_by: "vllm", root: s.model, parent: null, max_model_len: s.contextLength, permission: [] },
      ];
    case "llamacpp":
      return [{ ...base, owned_by: "llamacpp", meta: { vocab_type: 2, n_vocab: 151936, n_ctx_train: 32768 } }];
    case "lmstudio":
      return [{ id: s.model, object: "model", owned_by: "organization_owner" }];
    case "sglang":
      // sgl-project/sglang openai_api protocol ModelCard: owned_by "sglang", root, max_model_len.
      return [{ ...base, owned_by: "sglang", root: s.model, max_model_len: s.contextLength ?? 32768 }];
      return [{ ...base, owned_by: "sglang", root: s.model }];
  }
}

const json = (res: ServerResponse, body: unknown) => sendFailure(res, { status: 200, body });

/** With `rude`, every reply speaks as other servers do (each flag cited on OpenAIReply), so a whole suite runs so. */
const RUDE: OpenAIReply = { nameEveryDelta: true, contentNull: true, reasoningContent: true };

export async function startFakeOpenAI(
  opts: { replies?: OpenAIReply[]; server?: FakeOpenAIServer; rude?: true } = {},
): Promise<FakeOpenAI> {
  const server = opts.server ?? { kind: "openai", model: "gpt-fake" };
  return startScriptedServer<OpenAIReply>(opts.replies ?? [], async (req, res, nextReply) => {
    if (req.method === "GET" && req.path.endsWith("/models") && !req.path.startsWith("/api/")) {
      return json(res, { object: "list", data: modelsList(server) });
    }
    if (req.method === "GET" && req.path === "/props" && server.kind === "llamacpp") {
      return json(res, {
        default_generation_settings: { n_ctx: server.contextLength, model: server.model, temperature: 0.8 },
        total_slots: server.slots ?? 1,
        model_path: `/models/${server.model}`,
        build_info: "b5000-fake",
      });
    }
    if (req.method === "GET" && req.path === "/get_server_info" && server.kind === "sglang") {
      // SGLang's server info: its server args (grammar_backend among them) and the scheduler's state.
      return json(res, {
        model_path: server.model,
        grammar_backend: server.grammarBackend ?? "xgrammar",
        version: "0.5.2",
      });
    }
    if (req.method === "GET" && req.path === "/slots" && server.kind === "llamacpp") {
      // ggml-org/llama.cpp tools/server README, GET /slots: one object per slot.
      const slots = Array.from({ length: server.slots ?? 1 }, (_, id) => ({
        id,
        n_ctx: server.contextLength,
        is_processing: false,
      }));
      return json(res, slots);
    }
    if (req.method === "GET" && req.path === "/api/v0/models" && server.kind === "lmstudio") {
      // lmstudio.ai/docs/developer/rest/endpoints: GET /api/v0/models, loaded and not-loaded models.
      return json(res, {
        object: "list",
        data: [
          {
            id: "text-embedding-nomic-embed-text-v1.5",
            object: "model",
            type: "embeddings",
            state: "not-loaded",
            max_context_length: 2048,
          },
          {
            id: server.model,
            object: "model",
            type: "llm",
            arch: "qwen2",
            state: "loaded",
            max_context_length: 131072,
          },
        ],
      });
    }
    if (req.method === "GET" && req.path === "/api/v1/models" && server.kind === "lmstudio" && server.v1) {
      // lmstudio-ai/docs 1_developer/2_rest/list.md: `models[]` by `key`, each loaded instance's config.
      return json(res, {
        models: [
          {
            type: "llm",
            publisher: "lmstudio-community",
            key: server.model,
            display_name: server.model,
            architecture: "qwen2",
            quantization: { name: "Q4_K_M", bits_per_weight: 4 },
            size_bytes: 4683073888,
            params_string: "7B",
            loaded_instances: server.notLoaded
              ? []
              : [{ id: server.model, config: { context_length: server.contextLength } }],
            max_context_length: 131072,
            format: "gguf",
            capabilities: { vision: false, trained_for_tool_use: true },
          },
        ],
      });
    }
    if (req.method === "GET" && req.path.startsWith("/api/v0/models/") && server.kind === "lmstudio") {
      return json(res, {
        id: server.model,
        object: "model",
        type: "llm",
        publisher: "lmstudio-community",
        arch: "qwen2",
        compatibility_type: "gguf",
        quantization: "Q4_K_M",
        state: server.notLoaded ? "not-loaded" : "loaded",
        max_context_length: 131072,
        ...(server.notLoaded ? {} : { loaded_context_length: server.contextLength }),
      });
    }
    if (req.method !== "POST" || !req.path.endsWith("/chat/completions"))
      return sendFailure(res, {
        status: 404,
        body: { error: { message: "not found", type: "not_found_error", param: null, code: null } },
      });
    const prompt = fakePromptTokens(req.body);
    if (server.holds !== undefined && prompt > server.holds)
      return play(res, req, overflowRefusal(server.kind, server.holds, prompt));
    await play(res, req, { ...(opts.rude ? RUDE : {}), ...(nextReply() ?? {}) });
  });
}

/**
 * llama.cpp's server refusing a response_format schema it cannot turn into a grammar
 * (lidge-jun/opencodex#2135 quotes it; ggml-org/llama.cpp#19349 makes every parse failure a 400).
 */
export const grammarRefused = () =>
  openaiError(400, "Failed to initialize samplers: failed to parse grammar", "invalid_request_error");
