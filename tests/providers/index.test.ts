import { afterEach, describe, expect, it } from "vitest";
import type { RunConfig } from "../../src/protocol/run-config.js";
import { createProvider, splitProviderModel } from "../../src/providers/index.js";
import { startFakeAnthropic } from "../fakes/anthropic-server.js";
import { startFakeOllama } from "../fakes/ollama-server.js";
import { startFakeOpenAI } from "../fakes/openai-server.js";
import { chatRequest, collect, textOf } from "./helpers.js";

const config = (over: Partial<RunConfig>): RunConfig => ({
  provider: "ollama",
  model: "m",
  host: "",
  cwd: "/tmp",
  systemPrompt: "",
  numCtx: 8192,
  numCtxCap: 32768,
  maxSteps: 10,
  outputLimit: 10_000,
  permissionMode: "ask",
  allowedTools: [],
  toolProtocol: "native",
  idleTimeoutMs: 10_000,
  interactive: false,
  dataDir: "/tmp",
  configDir: "/tmp",
  ...over,
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

describe("createProvider", () => {
  it("ollama: config.host wins, else OLLAMA_HOST", async () => {
    const fake = await startFakeOllama({
      models: [{ name: "m" }],
      replies: [{ steps: [{ text: "from host" }] }, { steps: [{ text: "from env" }] }],
    });
    closers.push(fake.close);
    const a = createProvider(config({ host: fake.url }), { OLLAMA_HOST: "127.0.0.1:1" });
    expect(textOf(await collect(a.stream(chatRequest({ model: "m" }))))).toBe("from host");
    const b = createProvider(config({ host: "" }), { OLLAMA_HOST: `:${fake.port}` });
    expect(textOf(await collect(b.stream(chatRequest({ model: "m" }))))).toBe("from env");
  });

  it("anthropic: key and base URL from the environment", async () => {
    const fake = await startFakeAnthropic({ replies: [{ blocks: [{ text: "hi" }] }] });
    closers.push(fake.close);
    const p = createProvider(config({ provider: "anthropic" }), {
      ANTHROPIC_API_KEY: "sk-env",
      ANTHROPIC_BASE_URL: fake.url,
    });
    expect(p.name).toBe("anthropic");
    expect(textOf(await collect(p.stream(chatRequest({ model: "claude-sonnet-4-6" }))))).toBe("hi");
    expect(JSON.stringify(fake.requests[0]!.headers)).toContain("sk-env");
  });

  it("openai: config.apiKey and config.baseUrl win over the environment", async () => {
    const fake = await startFakeOpenAI({ replies: [{ text: "yo" }] });
    closers.push(fake.close);
    const p = createProvider(config({ provider: "openai", apiKey: "sk-config", baseUrl: `${fake.url}/v1` }), {
      OPENAI_API_KEY: "sk-env",
      OPENAI_BASE_URL: "http://127.0.0.1:1/v1",
    });
    expect(textOf(await collect(p.stream(chatRequest({ model: "gpt" }))))).toBe("yo");
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer sk-config");
  });
});

describe("splitProviderModel", () => {
  it.each([
    ["anthropic/claude-sonnet-4-6", { provider: "anthropic", model: "claude-sonnet-4-6" }],
    ["openai/gpt-5", { provider: "openai", model: "gpt-5" }],
    ["ollama/qwen3:8b", { provider: "ollama", model: "qwen3:8b" }],
    ["qwen/qwen3-coder", { model: "qwen/qwen3-coder" }],
    ["qwen3:8b", { model: "qwen3:8b" }],
  ])("%s", (name, expected) => {
    expect(splitProviderModel(name)).toEqual(expected);
  });
});
