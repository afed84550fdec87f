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
  // llama.cpp tools/server: exceed_context_size_error, "request (N tokens) exceeds the available context size (M tokens)".
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
  // vLLM serving_engine: "This model's maximum context length is M tokens. However, you requested N tokens".
  {
    server: "vLLM",
    pattern: /maximum context length is (\d+) tokens\. However, (?:you requested|your request has) (\d+)/i,
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
  // Ollama runner (ollama#16712): "the prompt is longer than the context length currently available to the model".
  { server: "Ollama", pattern: /prompt is longer than the context length/i, window: 0, sent: 0 },
  // LM Studio: "... the model is loaded with context length of only M tokens, which is not enough".
  { server: "LM Studio", pattern: /context length of only (\d+) tokens/i, window: 1, sent: 0 },
  { server: "LM Studio", pattern: /greater than the context length/i, window: 0, sent: 0 },
];

/** The overflow a server's error text describes, or undefined when it is some other failure. */
export function contextOverflow(text: string): ContextOverflow | undefined {
  for (const w of WORDINGS) {
    const m = w.pattern.exec(text);
    if (!m) continue;
    const out: ContextOverflow = {};
    if (w.window > 0) out.window = Number(m[w.window]!.replaceAll(",", ""));
    if (w.sent > 0) out.sent = Number(m[w.sent]!.replaceAll(",", ""));
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
