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
  chunk({}, r.toolCalls?.length ? "tool_calls" : "stop");
  if (body.stream_options?.include_usage && !r.noUsage) {
    const u = r.usage ?? { prompt: 31, completion: 9 };
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
        total_slots: 1,
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
    if (req.method === "GET" && req.path.startsWith("/api/v0/models/") && server.kind === "lmstudio") {
      return json(res, {
        id: server.model,
        object: "model",
        type: "llm",
        publisher: "lmstudio-community",
        arch: "qwen2",
        compatibility_type: "gguf",
        quantization: "Q4_K_M",
        state: "loaded",
        max_context_length: 131072,
        loaded_context_length: server.contextLength,
      });
    }
    if (req.method !== "POST" || !req.path.endsWith("/chat/completions"))
      return sendFailure(res, {
        status: 404,
        body: { error: { message: "not found", type: "not_found_error", param: null, code: null } },
      });
    await play(res, req, { ...(opts.rude ? RUDE : {}), ...(nextReply() ?? {}) });
  });
}

/**
 * llama.cpp's server refusing a response_format schema it cannot turn into a grammar
 * (lidge-jun/opencodex#2135 quotes it; ggml-org/llama.cpp#19349 makes every parse failure a 400).
 */
export const grammarRefused = () =>
  openaiError(400, "Failed to initialize samplers: failed to parse grammar", "invalid_request_error");
