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

  it("a server that does not say leaves it unknown", async () => {
    expect(await windowOf({ kind: "openai", model: "gpt-fake" })).toBeUndefined();
  });
});
