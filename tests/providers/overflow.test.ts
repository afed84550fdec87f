import { describe, expect, it } from "vitest";
import { contextOverflow, withOverflowHint } from "../../src/providers/overflow.js";

// Each server's own refusal, as its code writes it.
const REFUSALS: [string, string, { window?: number; sent?: number }][] = [
  [
    // ggml-org/llama.cpp tools/server (exceed_context_size_error)
    "llama.cpp",
    "request (9120 tokens) exceeds the available context size (8192 tokens), try increasing it",
    { window: 8192, sent: 9120 },
  ],
  ["llama.cpp (older builds)", "the request exceeds the available context size, try increasing it", {}],
  [
    // vllm-project/vllm vllm/entrypoints/openai/serving_engine.py
    "vLLM",
    "This model's maximum context length is 2048 tokens. However, you requested 7000 tokens (6000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
    { window: 2048, sent: 7000 },
  ],
  [
    // sgl-project/sglang python/sglang/srt/managers/tokenizer_manager.py
    "SGLang",
    "The input (691793 tokens) is longer than the model's context length (540000 tokens).",
    { window: 540000, sent: 691793 },
  ],
  [
    // ollama/ollama runner, ollama/ollama#16712
    "Ollama",
    "the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length",
    {},
  ],
  [
    // LM Studio (lmstudio-ai/lmstudio-bug-tracker reports)
    "LM Studio",
    "Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.",
    { window: 4096 },
  ],
  [
    // agent0's embedded engine, refused before sending (src/providers/embedded/prompt-fit.ts); node-llama-cpp
    // itself would throw "The default context shift strategy did not return a history that fits the context size"
    "embedded",
    "The prompt (9,120 tokens) exceeds the model's context window (8,192 tokens): the engine keeps 819 of them for the reply, so a prompt may take 7,373.",
    { window: 8192, sent: 9120 },
  ],
];

describe("contextOverflow", () => {
  it.each(REFUSALS)("reads %s's refusal and its figures", (_server, text, figures) => {
    expect(contextOverflow(text)).toEqual(figures);
  });

  it("leaves other failures alone", () => {
    expect(contextOverflow("model 'x' not found")).toBeUndefined();
    expect(contextOverflow("registry.ollama.ai/library/x does not support tools")).toBeUndefined();
  });

  it("gives an overflow error the figures and what to do", () => {
    const e = withOverflowHint({ kind: "server", message: `The server answered 400: ${REFUSALS[2]![1]}`, status: 400 });
    expect(e.hint).toContain("2,048 tokens");
    expect(e.hint).toContain("7,000");
    expect(e.hint).toContain("/compact");
    expect(withOverflowHint({ kind: "server", message: "boom" }).hint).toBeUndefined();
  });
});
