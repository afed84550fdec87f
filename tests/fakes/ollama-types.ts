import type { CacheUse } from "./prefix-cache.js";

// Types of the fake Ollama server's script and records. Wire field names follow Ollama's /api/chat.

export interface FakeModel {
  /** As listed by /api/tags, e.g. "qwen3:8b". A name without a tag also answers to "<name>:latest". */
  name: string;
  /** `model_info["<arch>.context_length"]`; default 32768. */
  contextLength?: number;
  /** Default ["completion", "tools"]. */
  capabilities?: string[];
  /** `general.architecture`; default "llama". */
  arch?: string;
  /** Bytes on disk; default 2019393189. */
  size?: number;
  /** A Modelfile's `PARAMETER num_ctx`, listed in /api/show's `parameters`. */
  numCtx?: number;
  /** /api/show's `renderer` and `parser` (Ollama's built-in template and tool-call parser). */
  renderer?: string;
  parser?: string;
}

export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** Default: "call_" + 8 random [a-z0-9]. */
  id?: string;
}

/**
 * One step of a scripted chat reply. Steps run in order; a step with text/thinking/toolCalls writes
 * one NDJSON chunk (or several with Reply.chunkChars). The other fields act in this order:
 * delayMs, raw, the chunk, error, destroy, hang.
 */
export interface Step {
  text?: string;
  thinking?: string;
  toolCalls?: FakeToolCall[];
  /** Pause before this step. */
  delayMs?: number;
  /** Write these bytes as they are (a malformed line, half a UTF-8 character, ...). */
  raw?: string | Uint8Array;
  /** Make this step's chunk the final done:true chunk (content/tool calls on the done line). */
  done?: true;
  /** Mid-stream `{"error":"..."}` line, then the response ends without a done line.
   *  Before anything was written it is an HTTP 500 `{"error"}` instead, as Ollama does. */
  error?: string;
  /** Reset the socket. */
  destroy?: true;
  /** Stop writing and keep the connection open until the client leaves or the server closes. */
  hang?: true;
}

export interface Reply {
  steps: Step[];
  /** A non-200 answer: status and body (object -> JSON, string -> text/plain). Steps are ignored. */
  status?: number;
  body?: unknown;
  /** Pause before the headers, like a model load plus prompt evaluation. */
  loadDelayMs?: number;
  /** Default: a rough token estimate of the request (JSON length / 4). */
  promptEvalCount?: number;
  /** Default: the streamed text and thinking length / 4. */
  evalCount?: number;
  /** Split each step's text into chunks of this many characters. */
  chunkChars?: number;
  /** Default "stop". */
  doneReason?: string;
  /** Send the 200 headers and end the body without any line (no done). */
  closeAfterHeaders?: true;
  /**
   * Tool calls as old Ollama sent them: no `id` (added in v0.12.10, "Add Tool Call ID (#12956)") and
   * no `function.index` (added in v0.4.7): shared/reference/ollama-wire.md, §5.
   */
  legacyToolCalls?: true;
}

export interface WireToolCall {
  id?: string;
  function: { index?: number; name: string; arguments: Record<string, unknown> };
}

export interface WireMessage {
  role: string;
  content: string;
  thinking?: string;
  images?: string[];
  tool_calls?: WireToolCall[];
  tool_name?: string;
  tool_call_id?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the raw text when it is not JSON, undefined when empty. */
  body: unknown;
}

export interface RecordedChat {
  /** 0-based among chats (load requests with `messages: []` are not chats). */
  index: number;
  model: string;
  messages: WireMessage[];
  tools?: unknown[];
  options?: Record<string, unknown>;
  think?: unknown;
  keep_alive?: unknown;
  stream: boolean;
  /** The whole request body. */
  body: Record<string, unknown>;
  /** The client went away before the reply ended. */
  aborted: boolean;
  /** Date.now() when the disconnect was seen. */
  abortedAt?: number;
  /** With FakeOllamaOptions.prefixCache: what the simulated cache did for this chat. */
  cache?: CacheUse;
}

export type Replies = Reply[] | ((req: RecordedChat, index: number) => Reply);
