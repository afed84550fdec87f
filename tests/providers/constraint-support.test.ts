// Whether a server decodes under a JSON schema, known from what it says of itself before any
// refusal (issue 38 §1):
// - Ollama: `format` takes a JSON schema from 0.5.0 (structured outputs, ollama/ollama#7900; older
//   servers answer `invalid format: expected "json" or a JSON schema`); GET /api/version says which.
// - llama.cpp's server (/props answers): response_format json_schema and `grammar`
//   (ggml-org/llama.cpp tools/server/README.md, /v1/chat/completions).
// - vLLM (/v1/models owned_by "vllm"): structured outputs through response_format
//   (docs.vllm.ai, features/structured_outputs).
// - LM Studio (/api/v0/models answers): response_format json_schema (lmstudio.ai/docs, structured-output).
// - SGLang: /get_server_info holds its server args; `grammar_backend: "none"` turns constraints off
//   (docs.sglang.ai, advanced_features/structured_outputs: --grammar-backend).
// - Anything else (OpenAI's own API, where older models refuse): unknown, learnt from a refusal.
import { afterEach, describe, expect, it } from "vitest";
import { createOllamaProvider } from "../../src/providers/ollama/provider.js";
import { createOpenAIProvider } from "../../src/providers/openai/provider.js";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIServer } from "../fakes/openai-server.js";

let ollama: FakeOllama | undefined;
let openai: FakeOpenAI | undefined;
afterEach(async () => {
  await ollama?.close();
  await openai?.close();
  ollama = openai = undefined;
});

describe("constraintSupport", () => {
  it("Ollama: from 0.5.0 on, by its version", async () => {
    ollama = await startFakeOllama({ models: [{ name: "small:1b" }], version: "0.4.7" });
    const old = await createOllamaProvider({ host: ollama.url }).constraintSupport!("small:1b");
    expect(old?.supported).toBe(false);
    expect(old?.why).toContain("0.4.7");
    await ollama.close();
    ollama = await startFakeOllama({ models: [{ name: "small:1b" }], version: "0.12.3" });
    expect((await createOllamaProvider({ host: ollama.url }).constraintSupport!("small:1b"))?.supported).toBe(true);
  });

  const openAiCases: [FakeOpenAIServer["kind"], boolean | undefined][] = [
    ["llamacpp", true],
    ["vllm", true],
    ["lmstudio", true],
    ["sglang", true],
    ["openai", undefined],
  ];
  it.each(openAiCases)("OpenAI-compatible %s: %s", async (kind, supported) => {
    openai = await startFakeOpenAI({ server: { kind, model: "m", contextLength: 8192 } });
    const p = createOpenAIProvider({ baseUrl: `${openai.url}/v1`, apiKey: "k" });
    expect((await p.constraintSupport!("m"))?.supported).toBe(supported);
  });

  it("SGLang started with --grammar-backend none: not supported", async () => {
    openai = await startFakeOpenAI({ server: { kind: "sglang", model: "m", grammarBackend: "none" } });
    const p = createOpenAIProvider({ baseUrl: `${openai.url}/v1`, apiKey: "k" });
    const said = await p.constraintSupport!("m");
    expect(said?.supported).toBe(false);
    expect(said?.why).toContain("grammar");
  });
});
