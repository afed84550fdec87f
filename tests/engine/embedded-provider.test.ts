// The real engine (node-llama-cpp, CPU) on a tiny random-weights model written by the test
// (tests/fakes/tiny-gguf.ts, after /work/shared/reference/gguf-tiny.md).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createEmbeddedProvider } from "../../src/providers/embedded/provider.js";
import { loadEngineModule } from "../../src/providers/embedded/engine.js";
import type { ChatRequest, ProviderEvent } from "../../src/providers/types.js";
import { writeTinyGguf } from "../fakes/tiny-gguf.js";
import { ensureTestEngine } from "./engine-dir.js";

let dir: string;
let modelPath: string;
/** One provider, so one loaded model and context for the file: it reads its seed and bound at each request. */
let provider: ReturnType<typeof createEmbeddedProvider>;
const opts = { engineDir: "", dataDir: "", seed: 7, maxTokens: 48, threads: 1 };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-embedded-"));
  modelPath = path.join(dir, "tiny.gguf");
  writeTinyGguf(modelPath);
  Object.assign(opts, { engineDir: await ensureTestEngine(), dataDir: dir });
  provider = createEmbeddedProvider(opts);
}, 240_000);

afterAll(async () => {
  await provider?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

function request(over: Partial<ChatRequest>): ChatRequest {
  return {
    model: modelPath,
    messages: [
      { role: "system", content: "You are a coding agent." },
      { role: "user", content: "What files are here?" },
    ],
    tools: [],
    numCtx: 1024,
    signal: new AbortController().signal,
    idleTimeoutMs: 60_000,
    ...over,
  };
}

async function collect(req: ChatRequest): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const e of provider.stream(req)) events.push(e);
  return events;
}

const callSchema = {
  type: "object",
  properties: {
    name: { enum: ["list_files"] },
    arguments: { type: "object", properties: { path: { enum: [".", "src"] } }, required: ["path"] },
  },
  required: ["name", "arguments"],
};

describe("embedded provider, real engine", () => {
  test("streams text and says the prompt tokens; a second turn evaluates only its new tokens", async () => {
    Object.assign(opts, { seed: 7, maxTokens: 48 });
    const first = await collect(request({}));
    expect(first.some((e) => e.type === "text")).toBe(true);
    const done1 = first.at(-1);
    expect(done1?.type).toBe("done");
    if (done1?.type !== "done") return;
    expect(done1.cachedTokens).toBe(0);
    const reply = first.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");
    const second = await collect(
      request({
        messages: [
          { role: "system", content: "You are a coding agent." },
          { role: "user", content: "What files are here?" },
          { role: "assistant", content: reply },
          { role: "user", content: "And in src?" },
        ],
      }),
    );
    const done2 = second.at(-1);
    expect(done2?.type).toBe("done");
    if (done2?.type !== "done") return;
    // The shared prefix came from the kept sequence: most of the prompt was not evaluated again.
    expect(done2.cachedTokens).toBeGreaterThanOrEqual(done1.promptTokens - 4);
    expect(done2.promptTokens - (done2.cachedTokens ?? 0)).toBeLessThan(done2.promptTokens / 2);
  }, 60_000);

  test("a reply under the constraint parses as a call on every seed; without it, not", async () => {
    // The grammar is built once for the schema, not at every request (the engine's own class, spied).
    const engine = (await loadEngineModule(opts.engineDir)) as unknown as { Llama: { prototype: object } };
    const built = vi.spyOn(
      engine.Llama.prototype as { createGrammarForJsonSchema: () => unknown },
      "createGrammarForJsonSchema",
    );
    const seeds = 5;
    let parsed = 0;
    let free = 0;
    opts.maxTokens = 120;
    for (let seed = 0; seed < seeds; seed++) {
      opts.seed = seed;
      const events = await collect(request({ constraint: { name: "call", schema: callSchema } }));
      const text = events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");
      const value = JSON.parse(text) as { name: string };
      if (value.name === "list_files") parsed++;
      const loose = await collect(request({}));
      const looseText = loose.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");
      if (parses(looseText)) free++;
    }
    expect(parsed).toBe(seeds);
    expect(free).toBe(0);
    expect(built).toHaveBeenCalledTimes(1);
    built.mockRestore();
  }, 60_000);
});

describe("Esc, real engine", () => {
  test("stops a reply at once: the stream ends with the stop, no text after it, and the next turn starts clean", async () => {
    Object.assign(opts, { seed: 7, maxTokens: 4000 });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    for await (const e of provider.stream(request({ signal: controller.signal }))) {
      events.push(e);
      if (e.type === "text" && !controller.signal.aborted) controller.abort();
    }
    const stop = events.findIndex((e) => e.type === "error");
    expect(events[stop]).toMatchObject({ type: "error", error: { kind: "aborted" } });
    expect(stop).toBe(events.length - 1);
    // Stopped after its first piece of text: the engine was not left to run to 4,000 tokens.
    expect(events.filter((e) => e.type === "text").length).toBeLessThanOrEqual(2);
    opts.maxTokens = 16;
    const next = await collect(request({}));
    expect(next.at(-1)).toMatchObject({ type: "done" });
  }, 60_000);

  test("Esc while the model loads: the stop comes first, and a later request finds the model loaded", async () => {
    const fresh = createEmbeddedProvider({ ...opts, maxTokens: 8 });
    try {
      const controller = new AbortController();
      const stream = fresh.stream(request({ signal: controller.signal }))[Symbol.asyncIterator]();
      const first = stream.next();
      controller.abort();
      expect((await first).value).toMatchObject({ type: "error", error: { kind: "aborted" } });
      expect((await stream.next()).done).toBe(true);
      const events: ProviderEvent[] = [];
      for await (const e of fresh.stream(request({}))) events.push(e);
      expect(events.at(-1)).toMatchObject({ type: "done" });
    } finally {
      await fresh.dispose();
    }
  }, 60_000);
});

function parses(text: string): boolean {
  try {
    return (JSON.parse(text) as { name?: unknown }).name === "list_files";
  } catch {
    return false;
  }
}
