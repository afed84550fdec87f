import type { ConversationMessage, ToolCall } from "../protocol/conversation.js";
import type { ToolSpec } from "../protocol/tool-spec.js";
import type { ThinkLevel } from "../protocol/run-config.js";

export interface ChatRequest {
  model: string;
  /** The whole conversation, the system prompt first. */
  messages: ConversationMessage[];
  tools: ToolSpec[];
  numCtx: number;
  keepAlive?: string | number;
  temperature?: number;
  think?: ThinkLevel;
  /** llama.cpp's `id_slot`: the slot whose prompt cache this conversation keeps. */
  slot?: number;
  /** Constrain the reply to JSON matching this schema: Ollama's format, OpenAI-compatible response_format (json_schema, strict), a grammar on the embedded engine. */
  constraint?: { name: string; schema: Record<string, unknown> };
  signal: AbortSignal;
  idleTimeoutMs: number;
}

export type ProviderErrorKind =
  | "unreachable"
  | "model-not-found"
  | "no-tools"
  | "no-constraint"
  | "auth"
  | "rate-limit"
  | "server"
  | "stream"
  | "timeout"
  | "aborted";

export interface ProviderError {
  kind: ProviderErrorKind;
  message: string;
  /** What the user can do about it. */
  hint?: string;
  status?: number;
}

/** A provider never throws once streaming has started: failures end the stream as an `error` event. */
export type ProviderEvent =
  | { type: "text"; delta: string }
  | { type: "thinking"; delta: string }
  /** Anthropic: the signature closing a thinking block (sent back with the block next time). */
  | { type: "thinking-signature"; signature: string }
  | { type: "tool-call"; call: ToolCall }
  | { type: "notice"; text: string }
  /**
   * promptTokens: the prompt as the server read it, cached part included; cachedTokens: that part
   * read from the server's prompt cache, when the server says (Ollama's prompt_eval_cached_count,
   * OpenAI's usage.prompt_tokens_details.cached_tokens, llama.cpp's timings.cache_n, Anthropic's
   * cache_read_input_tokens).
   */
  | { type: "done"; promptTokens: number; completionTokens: number; cachedTokens?: number }
  | { type: "error"; error: ProviderError };

export interface ModelInfo {
  name: string;
  contextLength?: number;
  /** The window the model's own settings ask for: a Modelfile's `PARAMETER num_ctx` (Ollama /api/show). */
  configuredWindow?: number;
  capabilities: string[];
  size?: number;
  /** The model takes a level of thinking (Ollama's gpt-oss), not only on or off. */
  thinkLevels?: boolean;
  /** Ollama's renderer and parser for the model (/api/show): what a tool-call bug report needs first. */
  renderer?: string;
  parser?: string;
  /** llama.cpp's server: how many slots (parallel sequences, each with its own prompt cache) it runs. */
  slots?: number;
}

/** Whether a server decodes under a JSON schema, as it says of itself, and how it was told. */
export interface ConstraintSupport {
  supported: boolean;
  why: string;
}

export interface Provider {
  readonly name: string;
  stream(req: ChatRequest): AsyncIterable<ProviderEvent>;
  /**
   * Models the server offers (for /model and the default model); `names` asks for each one's name and
   * size only (one request, where details cost one request per model).
   */
  listModels(signal?: AbortSignal, opts?: { names?: boolean }): Promise<ModelInfo[]>;
  /** Context length and capabilities of one model. Throws a ProviderError-shaped Error on failure. */
  modelInfo(model: string, signal?: AbortSignal): Promise<ModelInfo>;
  /**
   * Whether this server constrains replies to a JSON schema (ChatRequest.constraint), as it says of
   * itself; undefined when it does not say (the first refusal tells). Never throws. Asked once per
   * session, when a step would first be constrained.
   */
  constraintSupport?(model: string, signal?: AbortSignal): Promise<ConstraintSupport | undefined>;
  /** Load the model ahead of the first request (Ollama), with the num_ctx the session will use. */
  warm?(model: string, numCtx: number, keepAlive?: string | number, signal?: AbortSignal): Promise<void>;
  /** Frees what the provider holds in this process (the embedded engine's model and context). */
  dispose?(): Promise<void>;
}
