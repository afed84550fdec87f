import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../../src/providers/anthropic/provider.js";
import { ensureModelInfo } from "../../src/agent/model-info.js";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/anthropic-server.js";
import { testConfig } from "../tools/ctx.js";

let fake: FakeAnthropic | undefined;
afterEach(() => fake?.close());

describe("Anthropic context window and capabilities", () => {
  it("come from the models API: max_input_tokens and the thinking / image_input support", async () => {
    fake = await startFakeAnthropic({
      models: [
        { id: "claude-big", maxInputTokens: 1_000_000 },
        { id: "claude-plain", thinking: false, vision: false },
      ],
    });
    const p = createAnthropicProvider({ apiKey: "k", baseUrl: fake.url });
    expect(await p.modelInfo("claude-big")).toEqual({
      name: "claude-big",
      contextLength: 1_000_000,
      capabilities: ["completion", "tools", "thinking", "vision"],
    });
    expect((await p.modelInfo("claude-plain")).capabilities).toEqual(["completion", "tools"]);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toContain("GET /v1/models/claude-big");
  });

  it("fall back to the 200k window when the server has no models API (a proxy) or no key is set", async () => {
    fake = await startFakeAnthropic({ models: [] });
    expect((await createAnthropicProvider({ apiKey: "k", baseUrl: fake.url }).modelInfo("x")).contextLength).toBe(
      200_000,
    );
    expect((await createAnthropicProvider({ baseUrl: fake.url }).modelInfo("x")).contextLength).toBe(200_000);
  });

  it("the num_ctx cap bounds only Ollama: a hosted model's window is its own", async () => {
    fake = await startFakeAnthropic();
    const config = { ...testConfig("/p"), provider: "anthropic" as const, model: "claude-sonnet-4-5", numCtx: 0 };
    config.numCtxCap = 32768;
    const events: RunEvent[] = [];
    const p = createAnthropicProvider({ apiKey: "k", baseUrl: fake.url });
    const result = await ensureModelInfo(p, config, new AbortController().signal, (e) => events.push(e));
    expect(result.ok && result.config.numCtx).toBe(200_000);
    expect(events).toContainEqual(expect.objectContaining({ type: "model-info", numCtx: 200_000 }));
  });
});
