// Each local server's own words for "the prompt does not fit the context window", and the
// figures they carry. Read from the servers' code, so one rule recognises every provider's 400.
import type { ProviderError } from "./types.js";

/** A refused prompt: the window the server holds and the prompt size it counted, where it said. */
export interface ContextOverflow {
  window?: number;
  sent?: number;
}

interface Wording {
  server: string;
  pattern: RegExp;
  /** Which capture group holds the window and which the prompt size (0: not said). */
  window: number;
  sent: number;
}

// Order matters only where two forms could both match; each carries its figures in its own order.
const WORDINGS: readonly Wording[] = [
  // llama.cpp tools/server (exceed_context_size_error), also passed on by Ollama's llama-server runner:
  // "request (N tokens) exceeds the available context size (M tokens), try increasing it".
  {
    server: "llama.cpp",
    pattern: /request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)/i,
    window: 2,
    sent: 1,
  },
  { server: "llama.cpp", pattern: /exceeds the available context size|exceed_context_size_error/i, window: 0, sent: 0 },
  // agent0's embedded engine (providers/embedded/prompt-fit.ts), refused before sending.
  {
    server: "embedded",
    pattern: /prompt \(([\d,]+) tokens\) exceeds the model's context window \(([\d,]+) tokens\)/i,
    window: 2,
    sent: 1,
  },
  // vLLM (v1 input processor): "This model's maximum context length is M tokens. However, you requested
  // O output tokens and your prompt contains at least N input tokens, for a total of at least T tokens."
  {
    server: "vLLM",
    pattern: /maximum context length is (\d+) tokens\..*?prompt contains (?:at least )?(\d+) input tokens/is,
    window: 1,
    sent: 2,
  },
  // Older vLLM and OpenAI: "However, you requested T tokens (N in the messages, O in the completion)",
  // or "your request has N input tokens".
  {
    server: "vLLM",
    pattern:
      /maximum context length is (\d+) tokens\..*?(?:\((\d+) in the messages|your request has (\d+) input tokens)/is,
    window: 1,
    sent: 2,
  },
  { server: "vLLM", pattern: /maximum context length is (\d+) tokens/i, window: 1, sent: 0 },
  // SGLang tokenizer_manager: "The input (N tokens) is longer than the model's context length (M tokens)."
  {
    server: "SGLang",
    pattern: /input \((\d+) tokens\) is longer than the model's context length \((\d+)/i,
    window: 2,
    sent: 1,
  },
  // SGLang, prompt and completion together: "Requested token count exceeds the model's maximum context
  // length of M tokens. You requested a total of T tokens: N tokens from the input messages and …".
  {
    server: "SGLang",
    pattern: /maximum context length of (\d+) tokens\..*?(\d+) tokens from the input messages/is,
    window: 1,
    sent: 2,
  },
  // Ollama's runner (llm/llama_server.go): "the prompt is longer than the context length currently
  // available to the model; shorten the prompt, …" (ollama#16712).
  { server: "Ollama", pattern: /prompt is longer than the context length/i, window: 0, sent: 0 },
  // LM Studio 0.3: "Trying to keep the first N tokens when context the overflows. However, the model is
  // loaded with context length of only M tokens, which is not enough."
  {
    server: "LM Studio",
    pattern: /keep the first (\d+) tokens when context(?: the)? overflows.*?context length of only (\d+) tokens/is,
    window: 2,
    sent: 1,
  },
  { server: "LM Studio", pattern: /context length of only (\d+) tokens/i, window: 1, sent: 0 },
  // LM Studio 0.4: "The number of tokens to keep from the initial prompt is greater than the context
  // length (n_keep: N>= n_ctx: M)."
  {
    server: "LM Studio",
    pattern: /greater than the context length \(n_keep: (\d+)\s*>=\s*n_ctx: (\d+)\)/i,
    window: 2,
    sent: 1,
  },
  { server: "LM Studio", pattern: /greater than the context length/i, window: 0, sent: 0 },
];

/** The overflow a server's error text describes, or undefined when it is some other failure. */
export function contextOverflow(text: string): ContextOverflow | undefined {
  for (const w of WORDINGS) {
    const m = w.pattern.exec(text);
    if (!m) continue;
    const out: ContextOverflow = {};
    if (w.window > 0) out.window = Number(m[w.window]!.replaceAll(",", ""));
    // A form with alternatives puts the prompt size in whichever group matched.
    const sent = w.sent > 0 ? m.slice(w.sent).find((g) => g !== undefined) : undefined;
    if (sent !== undefined) out.sent = Number(sent.replaceAll(",", ""));
    return out;
  }
  return undefined;
}

/** A server error that is an overflow gets the figures and what to do; any other passes through. */
export function withOverflowHint(error: ProviderError): ProviderError {
  const o = contextOverflow(error.message);
  if (!o) return error;
  const figures =
    o.window !== undefined
      ? ` (it holds ${o.window.toLocaleString("en-US")} tokens${o.sent !== undefined ? `, the prompt was ${o.sent.toLocaleString("en-US")}` : ""})`
      : "";
  return {
    ...error,
    hint: `The conversation no longer fits the model's context window${figures}: run /compact, or start the server with a larger context.`,
  };
}
