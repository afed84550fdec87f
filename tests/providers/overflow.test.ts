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
    { window: 2048, sent: 6000 },
  ],
  [
    // vLLM v1's form (seen from vLLM 0.25 and in clients' fakes of it, e.g. the 262,144-token report in
    // the OpenAI-compatible shim tests): the prompt size follows "your prompt contains at least".
    "vLLM (v1)",
    "This model's maximum context length is 8192 tokens. However, you requested 4096 output tokens and your prompt contains at least 9100 input tokens, for a total of at least 13196 tokens. Please reduce the length of the input prompt or the number of requested output tokens. (parameter=input_tokens, value=9100)",
    { window: 8192, sent: 9100 },
  ],
  [
    // vLLM when max_tokens alone is too large: "… and your request has N input tokens".
    "vLLM (max_tokens)",
    "'max_tokens' or 'max_completion_tokens' is too large: 8000. This model's maximum context length is 4096 tokens and your request has 2778 input tokens (8000 > 4096 - 2778).",
    { window: 4096 },
  ],
  [
    // sgl-project/sglang python/sglang/srt/managers/tokenizer_manager.py
    "SGLang",
    "The input (691793 tokens) is longer than the model's context length (540000 tokens).",
    { window: 540000, sent: 691793 },
  ],
  [
    // sgl-project/sglang tokenizer_manager.py, prompt and completion together
    "SGLang (total)",
    "Requested token count exceeds the model's maximum context length of 64000 tokens. You requested a total of 71897 tokens: 7897 tokens from the input messages and 64000 tokens for the completion. Please reduce the number of tokens in the input messages or the completion to fit within the limit.",
    { window: 64000, sent: 7897 },
  ],
  [
    // ollama/ollama passing on its llama-server runner's refusal (seen by rig users), JSON in a string
    "Ollama (llama-server runner)",
    '{"error":"{\\"error\\":{\\"code\\":400,\\"message\\":\\"request (9177 tokens) exceeds the available context size (4096 tokens), try increasing it\\",\\"type\\":\\"exceed_context_size_error\\"}}"}',
    { window: 4096, sent: 9177 },
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
    { window: 4096, sent: 5000 },
  ],
  [
    // lmstudio-ai/lmstudio-bug-tracker#546 (0.3.13), "loaded with a context length" in page-assist#356
    "LM Studio (0.3, with a)",
    "Trying to keep the first 6547 tokens when context overflows. However, the model is loaded with a context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input.",
    { window: 4096, sent: 6547 },
  ],
  [
    // LM Studio 0.4 (Gitlawb/openclaude#353)
    "LM Studio (0.4)",
    "The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 13055>= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter input.",
    { window: 4096, sent: 13055 },
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
    expect(e.hint).toContain("6,000");
    expect(e.hint).toContain("/compact");
    expect(withOverflowHint({ kind: "server", message: "boom" }).hint).toBeUndefined();
  });
});
