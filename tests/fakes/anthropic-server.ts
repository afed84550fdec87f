// A fake Anthropic Messages API (POST /v1/messages, SSE) per shared/reference/ollama-wire.md §7:
// message_start, content_block_start/delta/stop (text_delta, thinking_delta + signature_delta,
// input_json_delta split across deltas), ping, message_delta with cumulative usage, message_stop.
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

export type AnthropicBlock =
  { text: string } | { thinking: string } | { toolUse: { name: string; input: Record<string, unknown>; id?: string } };

export interface AnthropicReply {
  blocks?: AnthropicBlock[];
  /** A non-200 answer instead of a stream. */
  failure?: HttpFailure;
  /** After message_start and the first block: `event: error` with this error, then the end. */
  errorEvent?: { type: string; message: string };
  /** Pieces of text/thinking per delta (default 5) and of tool input JSON (default 7). */
  chunkChars?: number;
  jsonChunkChars?: number;
  inputTokens?: number;
  outputTokens?: number;
  delayMs?: number;
  /**
   * A `ping` and an event type no client knows after every delta: the streaming docs say pings may
   * come at any point and new event types may be added, to be handled gracefully
   * (docs.anthropic.com/en/docs/build-with-claude/streaming, "Event types", "Ping events").
   */
  rude?: true;
}

/** A model the fake's models API lists (GET /v1/models, GET /v1/models/{id}). */
export interface FakeClaudeModel {
  id: string;
  maxInputTokens?: number;
  thinking?: boolean;
  vision?: boolean;
}

const DEFAULT_MODELS: FakeClaudeModel[] = [
  { id: "claude-sonnet-4-5", maxInputTokens: 200_000 },
  { id: "claude-haiku-4-5", maxInputTokens: 200_000 },
];

/** The models API's model object (shape of the published API, capabilities trimmed to what we read). */
function modelObject(m: FakeClaudeModel) {
  const support = (supported: boolean) => ({ supported });
  return {
    type: "model",
    id: m.id,
    display_name: m.id.replace(/-/g, " "),
    created_at: "2025-09-29T00:00:00Z",
    lifecycle: "active",
    deprecated_at: null,
    retires_at: null,
    line: null,
    max_input_tokens: m.maxInputTokens ?? 200_000,
    max_tokens: 64_000,
    capabilities: {
      batch: support(true),
      citations: support(true),
      code_execution: support(false),
      image_input: support(m.vision ?? true),
      pdf_input: support(true),
      structured_outputs: support(true),
      thinking: { supported: m.thinking ?? true, types: { enabled: support(m.thinking ?? true) } },
    },
  };
}

export interface FakeAnthropic extends RecordingServer {
  setReplies(replies: AnthropicReply[]): void;
}

export const anthropicError = (
  status: number,
  type: string,
  message: string,
  headers?: Record<string, string>,
): AnthropicReply => ({
  failure: { status, body: { type: "error", error: { type, message }, request_id: "req_fake" }, headers },
});
export const rateLimited = () =>
  anthropicError(429, "rate_limit_error", "Number of requests has exceeded your rate limit");
export const overloaded = () => anthropicError(529, "overloaded_error", "Overloaded");
export const unauthorized = () => anthropicError(401, "authentication_error", "invalid x-api-key");

function pieces(s: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out.length ? out : [""];
}

function sendEvent(res: ServerResponse, data: Record<string, unknown> & { type: string }): void {
  res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
}

async function play(res: ServerResponse, req: RecordedHttp, r: AnthropicReply): Promise<void> {
  const send = (target: ServerResponse, data: Record<string, unknown> & { type: string }) => {
    sendEvent(target, data);
    if (r.rude && data.type === "content_block_delta") {
      sendEvent(target, { type: "ping" });
      sendEvent(target, { type: "content_block_annotation", index: data.index, note: "a future event type" });
    }
  };
  if (r.delayMs) await pause(res, r.delayMs);
  if (res.destroyed) return;
  if (r.failure) return sendFailure(res, r.failure);
  const body = (req.body ?? {}) as { model?: string };
  sseHead(res);
  send(res, {
    type: "message_start",
    message: {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      model: body.model ?? "claude",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: r.inputTokens ?? 25,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 1,
      },
    },
  });
  const blocks = r.blocks ?? [{ text: "ok" }];
  let index = 0;
  for (const block of blocks) {
    if ("text" in block) {
      send(res, { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      if (index === 0) send(res, { type: "ping" });
      for (const p of pieces(block.text, r.chunkChars ?? 5))
        send(res, { type: "content_block_delta", index, delta: { type: "text_delta", text: p } });
    } else if ("thinking" in block) {
      send(res, {
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      });
      for (const p of pieces(block.thinking, r.chunkChars ?? 5))
        send(res, { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: p } });
      send(res, { type: "content_block_delta", index, delta: { type: "signature_delta", signature: "c2lnbmF0dXJl" } });
    } else {
      const { name, input, id } = block.toolUse;
      send(res, {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: id ?? `toolu_fake${index}`, name, input: {} },
      });
      send(res, { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } });
      for (const p of pieces(JSON.stringify(input), r.jsonChunkChars ?? 7))
        send(res, { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: p } });
    }
    if (r.errorEvent) {
      send(res, { type: "error", error: r.errorEvent });
      res.end();
      return;
    }
    send(res, { type: "content_block_stop", index });
    index++;
  }
  const stopReason = blocks.some((b) => "toolUse" in b) ? "tool_use" : "end_turn";
  send(res, {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: r.outputTokens ?? 12 },
  });
  send(res, { type: "message_stop" });
  res.end();
}

export async function startFakeAnthropic(
  /** `rude`: every reply with pings and unknown event types (see AnthropicReply.rude). */
  opts: { replies?: AnthropicReply[]; models?: FakeClaudeModel[]; rude?: true } = {},
): Promise<FakeAnthropic> {
  const models = opts.models ?? DEFAULT_MODELS;
  return startScriptedServer<AnthropicReply>(opts.replies ?? [], async (req, res, nextReply) => {
    if (req.method === "GET" && req.path === "/v1/models") {
      const data = models.map(modelObject);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }),
      );
      return;
    }
    if (req.method === "GET" && req.path.startsWith("/v1/models/")) {
      const id = decodeURIComponent(req.path.slice("/v1/models/".length));
      const found = models.find((m) => m.id === id);
      if (!found) {
        return sendFailure(res, {
          status: 404,
          body: { type: "error", error: { type: "not_found_error", message: `model: ${id}` }, request_id: "req_fake" },
        });
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(modelObject(found)));
      return;
    }
    if (req.method !== "POST" || req.path !== "/v1/messages") {
      return sendFailure(res, {
        status: 404,
        body: { type: "error", error: { type: "not_found_error", message: `${req.method} ${req.path} not found` } },
      });
    }
    await play(res, req, { ...(opts.rude ? { rude: true as const } : {}), ...(nextReply() ?? {}) });
  });
}
