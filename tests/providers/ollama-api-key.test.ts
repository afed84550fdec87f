// $OLLAMA_API_KEY goes to Ollama's cloud and nowhere else: a host named by a project's config (or a
// typo) must never receive the user's key. Written as the attack: a canary key and a server that
// records every header it is sent.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProvider } from "../../src/providers/index.js";
import { createOllamaProvider, ollamaApiKey, resolveOllamaHost } from "../../src/providers/ollama/provider.js";
import { httpFetch, type HttpFetch } from "../../src/providers/http.js";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { chatRequest, collect, textOf } from "./helpers.js";
import { testConfig } from "../tools/ctx.js";

const CANARY = "sk-canary-7f3a";
const env = { OLLAMA_API_KEY: CANARY };

let fake: FakeOllama;
beforeEach(async () => {
  fake = await startFakeOllama({ models: [{ name: "qwen3:8b" }] });
});
afterEach(() => fake.close());

/** Every call a provider makes: the model's info, a load, a chat. */
async function exercise(provider: ReturnType<typeof createOllamaProvider>) {
  await provider.modelInfo("qwen3:8b");
  await provider.warm?.("qwen3:8b", 8192);
  return textOf(await collect(provider.stream(chatRequest())));
}

describe("$OLLAMA_API_KEY", () => {
  it("is never sent to a host that is not https://ollama.com", async () => {
    const provider = createProvider({ ...testConfig("/tmp"), provider: "ollama", host: fake.url }, env);
    expect(await exercise(provider as ReturnType<typeof createOllamaProvider>)).toBe("ok");
    expect(fake.requests.length).toBeGreaterThanOrEqual(3);
    for (const r of fake.requests) expect(JSON.stringify(r.headers)).not.toContain(CANARY);
  });

  it("is sent as a Bearer token on every request to https://ollama.com", async () => {
    const host = resolveOllamaHost("ollama.com", {});
    const seen: (Record<string, string> | undefined)[] = [];
    // The requests meant for ollama.com are served by the fake, headers as they were built.
    const toFake: HttpFetch = (url, init) => {
      seen.push(init?.headers);
      return httpFetch(url.replace(host, fake.url), init);
    };
    const provider = createOllamaProvider({ host, apiKey: ollamaApiKey(host, env), fetch: toFake });
    expect(await exercise(provider)).toBe("ok");
    expect(seen).toHaveLength(3);
    for (const headers of seen) expect(headers?.authorization).toBe(`Bearer ${CANARY}`);
  });

  it.each([
    ["https://ollama.com:443", CANARY],
    ["http://ollama.com:80", undefined],
    ["https://ollama.com.evil.example:443", undefined],
    ["https://evil.example/ollama.com", undefined],
    ["http://127.0.0.1:11434", undefined],
  ])("host %s -> %s", (host, expected) => {
    expect(ollamaApiKey(host, env)).toBe(expected);
  });
});
