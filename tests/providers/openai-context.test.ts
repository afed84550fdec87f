import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIProvider } from "../../src/providers/openai/provider.js";
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIServer } from "../fakes/openai-server.js";

let fake: FakeOpenAI | undefined;
afterEach(() => fake?.close());

async function windowOf(server: FakeOpenAIServer): Promise<number | undefined> {
  fake = await startFakeOpenAI({ server });
  return (await createOpenAIProvider({ baseUrl: `${fake.url}/v1` }).modelInfo(server.model)).contextLength;
}

describe("an OpenAI-compatible server's context window", () => {
  it("vLLM: max_model_len from /v1/models", async () => {
    expect(await windowOf({ kind: "vllm", model: "Qwen/Qwen2.5-7B-Instruct", contextLength: 32768 })).toBe(32768);
  });

  it("llama.cpp: n_ctx from /props (not the trained n_ctx_train)", async () => {
    expect(await windowOf({ kind: "llamacpp", model: "qwen.gguf", contextLength: 8192 })).toBe(8192);
  });

  it("LM Studio: the loaded context length from /api/v0/models/{id}", async () => {
    expect(await windowOf({ kind: "lmstudio", model: "qwen2.5-7b-instruct", contextLength: 4096 })).toBe(4096);
  });

  it("LM Studio 0.4: a loaded instance's context_length from the v1 REST API", async () => {
    const server = { kind: "lmstudio", model: "qwen2.5-7b-instruct", contextLength: 4096, v1: true } as const;
    expect(await windowOf(server)).toBe(4096);
    expect(fake!.requests.some((r) => r.path === "/api/v1/models")).toBe(true);
  });

  // A model LM Studio has not loaded gets its own default window when the first request loads it:
  // its max_context_length (131,072 here) is what it could hold, not what it will.
  it.each([
    ["v1", true],
    ["v0", undefined],
  ] as const)("LM Studio (%s): a model not loaded yet has no window to tell", async (_api, v1) => {
    const server = { kind: "lmstudio", model: "qwen2.5-7b-instruct", notLoaded: true, ...(v1 ? { v1 } : {}) } as const;
    expect(await windowOf(server)).toBeUndefined();
  });

  it("a server that does not say leaves it unknown", async () => {
    expect(await windowOf({ kind: "openai", model: "gpt-fake" })).toBeUndefined();
  });
});
