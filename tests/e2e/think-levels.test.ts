// Issue 43 §3, check 4: `--think high` reaches each server as its own setting. Ollama takes levels
// for gpt-oss and booleans for other thinking models (docs.ollama.com/capabilities/thinking; the
// ollama-python example examples/thinking-levels.py sends 'low'/'medium'/'high' to gpt-oss only), so
// a boolean-only model gets `true`; OpenAI-compatible servers take `reasoning_effort`
// (platform.openai.com/docs/api-reference/chat/create; llama.cpp hands it to the template,
// ggml-org/llama.cpp#15494); "off" reaches llama.cpp, vLLM and SGLang as the template's
// `enable_thinking: false` (llama.cpp#13196, Qwen3's chat template); Anthropic takes budget_tokens.
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/openai-server.js";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/anthropic-server.js";
import { runHeadless, type Sandbox, eachTest } from "./harness.js";

const THINKING = ["completion", "tools", "thinking"];

describe("--think levels, per server", () => {
  let ollama: FakeOllama | undefined;
  let openai: FakeOpenAI | undefined;
  let anthropic: FakeAnthropic | undefined;
  let sb: Sandbox;
  eachTest(
    (s) => (sb = s),
    () => [ollama, openai, anthropic],
  );
  const onOllama = async (model: string, ...think: string[]) => {
    const before = ollama!.chats.length;
    const r = await runHeadless(sb, ["-p", "hi", "--host", ollama!.url, "--model", model, ...think]);
    expect(r.code).toBe(0);
    return ollama!.chats[before]!.body.think;
  };

  it("Ollama: gpt-oss gets the level, a boolean-only thinking model gets true", async () => {
    ollama = await startFakeOllama({
      models: [
        { name: "gpt-oss:20b", arch: "gptoss", capabilities: THINKING },
        { name: "qwen3:8b", arch: "qwen3", capabilities: THINKING },
      ],
    });
    expect(await onOllama("gpt-oss:20b", "--think", "high")).toBe("high");
    expect(await onOllama("qwen3:8b", "--think", "high")).toBe(true);
  }, 60_000);

  it("Ollama: --think alone is on, --think off and --no-think are off", async () => {
    ollama = await startFakeOllama({ models: [{ name: "qwen3:8b", arch: "qwen3", capabilities: THINKING }] });
    expect(await onOllama("qwen3:8b", "--think")).toBe(true);
    expect(await onOllama("qwen3:8b", "--think", "off")).toBe(false);
    expect(await onOllama("qwen3:8b", "--no-think")).toBe(false);
  }, 60_000);

  it("OpenAI-compatible: reasoning_effort; off turns the template's thinking off", async () => {
    openai = await startFakeOpenAI({ server: { kind: "llamacpp", model: "qwen3", contextLength: 32768 } });
    sb.env.OPENAI_API_KEY = "sk-test-0000";
    const base = ["-p", "hi", "--provider", "openai", "--base-url", `${openai.url}/v1`, "--model", "qwen3"];
    const sent = async (...think: string[]) => {
      const before = openai!.requests.length;
      const r = await runHeadless(sb, [...base, ...think]);
      expect(r.code).toBe(0);
      return openai!.requests.slice(before).find((q) => q.method === "POST")!.body as Record<string, unknown>;
    };
    expect((await sent("--think", "high")).reasoning_effort).toBe("high");
    const off = await sent("--think", "off");
    expect(off.reasoning_effort).toBeUndefined();
    expect(off.chat_template_kwargs).toEqual({ enable_thinking: false });
  }, 60_000);

  it("Anthropic: a higher level is a larger thinking budget", async () => {
    anthropic = await startFakeAnthropic({});
    sb.env.ANTHROPIC_API_KEY = "sk-ant-test";
    const base = ["-p", "hi", "--provider", "anthropic", "--base-url", anthropic.url, "--model", "claude-sonnet-4-5"];
    const budget = async (level: string) => {
      const before = anthropic!.requests.length;
      const r = await runHeadless(sb, [...base, "--think", level]);
      expect(r.code).toBe(0);
      const body = anthropic!.requests.slice(before).find((q) => q.method === "POST" && q.path.endsWith("/messages"))!
        .body as { thinking?: { budget_tokens: number }; max_tokens: number };
      expect(body.max_tokens).toBeGreaterThan(body.thinking!.budget_tokens);
      return body.thinking!.budget_tokens;
    };
    const low = await budget("low");
    const high = await budget("high");
    expect(low).toBeGreaterThanOrEqual(1024);
    expect(high).toBeGreaterThan(low);
  }, 90_000);
});
