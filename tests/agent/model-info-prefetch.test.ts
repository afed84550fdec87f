// A headless run asks the server about its model while the main thread reads the project
// (prefetch-model-info); the run then uses that answer. Against the fake Ollama and the real
// provider: one /api/show, the same num_ctx and tool protocol, the same errors as without it.
import { createServer, type AddressInfo, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ensureModelInfo, prefetchModelInfo, type Prefetched } from "../../src/agent/model-info.js";
import { createProvider } from "../../src/providers/index.js";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { closedPort } from "../fakes/ports.js";
import { testConfig } from "../tools/ctx.js";

let fake: FakeOllama | undefined;
/** The session's lookups started early (a session's field in the app). */
const prefetched: Prefetched = new Map();
afterEach(async () => {
  prefetched.clear();
  await fake?.close();
  fake = undefined;
});

const shows = (f: FakeOllama) => f.requests.filter((r) => r.path === "/api/show").length;

/** The config a run starts with: model chosen, num_ctx still to be learnt. */
function unresolved(host: string, model: string): RunConfig {
  return { ...testConfig("/p"), host, model, numCtx: 0, numCtxCap: 32768 };
}

async function resolve(config: RunConfig, signal = new AbortController().signal) {
  const events: RunEvent[] = [];
  const result = await ensureModelInfo(createProvider(config), config, signal, (e) => events.push(e), prefetched);
  return { result, events };
}

describe("model info asked for ahead of the run", () => {
  it("the run uses the prefetched answer: one /api/show, num_ctx and tool protocol from it", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b", contextLength: 40960, capabilities: ["completion", "thinking"] }],
    });
    const config = unresolved(fake.url, "qwen3:8b");
    prefetchModelInfo(createProvider(config), config, prefetched);
    const { result } = await resolve(config);
    expect(result).toMatchObject({ ok: true, config: { numCtx: 32768, toolProtocol: "json" } });
    expect(shows(fake)).toBe(1);
  });

  it("is used once: a later run asks the server again", async () => {
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b", contextLength: 8192 }] });
    const config = unresolved(fake.url, "qwen3:8b");
    prefetchModelInfo(createProvider(config), config, prefetched);
    await resolve(config);
    const { result } = await resolve(config);
    expect(result).toMatchObject({ ok: true, config: { numCtx: 8192 } });
    expect(shows(fake)).toBe(2);
  });

  it("a run for another model (a resumed session's) asks for its own", async () => {
    fake = await startFakeOllama({
      models: [
        { name: "qwen3:8b", contextLength: 40960 },
        { name: "llama3.2", contextLength: 4096 },
      ],
    });
    const early = unresolved(fake.url, "qwen3:8b");
    prefetchModelInfo(createProvider(early), early, prefetched);
    const { result } = await resolve(unresolved(fake.url, "llama3.2"));
    expect(result).toMatchObject({ ok: true, config: { model: "llama3.2", numCtx: 4096 } });
    const asked = fake.requests.filter((r) => r.path === "/api/show").map((r) => (r.body as { model: string }).model);
    expect(asked.sort()).toEqual(["llama3.2", "qwen3:8b"]);
  });

  it("a missing model: the run reports the server's error as if it had asked itself", async () => {
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b", contextLength: 40960 }] });
    const direct = await resolve(unresolved(fake.url, "nope:1b"));
    const config = unresolved(fake.url, "nope:1b");
    prefetchModelInfo(createProvider(config), config, prefetched);
    const early = await resolve(config);
    expect(direct.result.ok).toBe(false);
    expect(early.result).toEqual(direct.result);
  });

  it("a server that is down: the same message and hint", async () => {
    const host = `http://127.0.0.1:${await closedPort()}`;
    const direct = await resolve(unresolved(host, "qwen3:8b"));
    const config = unresolved(host, "qwen3:8b");
    prefetchModelInfo(createProvider(config), config, prefetched);
    const early = await resolve(config);
    expect(direct.result).toMatchObject({ ok: false, hint: expect.any(String) });
    expect(early.result).toEqual(direct.result);
  });

  it("stopping the run stops waiting for a prefetched answer", async () => {
    // A host that accepts the connection and never answers: only the signal can end the wait.
    const silent = await silentServer();
    try {
      const config = unresolved(`http://127.0.0.1:${silent.port}`, "qwen3:8b");
      prefetchModelInfo(createProvider(config), config, prefetched);
      const ctl = new AbortController();
      const pending = resolve(config, ctl.signal);
      ctl.abort();
      const { result } = await pending;
      expect(result).toEqual({ ok: false, message: "The request was stopped.", hint: undefined });
    } finally {
      silent.close();
    }
  });

  it("nothing is asked when num_ctx is already known or no model is chosen", async () => {
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b", contextLength: 40960 }] });
    prefetchModelInfo(createProvider(unresolved(fake.url, "")), unresolved(fake.url, ""), prefetched);
    const known = { ...unresolved(fake.url, "qwen3:8b"), numCtx: 8192 };
    prefetchModelInfo(createProvider(known), known, prefetched);
    // A lookup is started and kept in the session's map in the same call, or never.
    expect(prefetched.size).toBe(0);
    // One that must ask, after them: by its answer the server has seen only its request.
    const asked = unresolved(fake.url, "qwen3:8b");
    prefetchModelInfo(createProvider(asked), asked, prefetched);
    expect(prefetched.size).toBe(1);
    await [...prefetched.values()][0];
    expect(fake.requests.map((r) => r.path)).toEqual(["/api/show"]);
  });
});

/** A server that accepts connections and never answers. */
async function silentServer(): Promise<{ port: number; close(): void }> {
  const sockets: Socket[] = [];
  const server = createServer((s) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as AddressInfo).port,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}
