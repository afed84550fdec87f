// The real engine (node-llama-cpp, CPU) on a tiny random-weights model written by the test
// (tests/fakes/tiny-gguf.ts, after /work/shared/reference/gguf-tiny.md).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createEmbeddedProvider } from "../../src/providers/embedded/provider.js";
import type { ChatRequest, ProviderEvent } from "../../src/providers/types.js";
import { writeTinyGguf } from "../fakes/tiny-gguf.js";
import { ensureTestEngine } from "./engine-dir.js";

let dir: string;
let modelPath: string;
let provider: ReturnType<typeof createEmbeddedProvider>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-embedded-"));
  modelPath = path.join(dir, "tiny.gguf");
  writeTinyGguf(modelPath);
  provider = createEmbeddedProvider({ engineDir: await ensureTestEngine(), seed: 7, maxTokens: 48 });
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
    numCtx: 2048,
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
  }, 120_000);

  test("a reply under the constraint parses as a call on every seed; without it, not", async () => {
    const seeds = 5;
    let parsed = 0;
    let free = 0;
    // One loaded model; the provider reads its seed at each request.
    const opts = { engineDir: await ensureTestEngine(), seed: 0, maxTokens: 120 };
    const p = createEmbeddedProvider(opts);
    for (let seed = 0; seed < seeds; seed++) {
      opts.seed = seed;
      const events = await collectFrom(p, request({ constraint: { name: "call", schema: callSchema } }));
      const text = events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");
      const value = JSON.parse(text) as { name: string };
      if (value.name === "list_files") parsed++;
      const loose = await collectFrom(p, request({}));
      const looseText = loose.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");
      if (parses(looseText)) free++;
    }
    await p.dispose();
    expect(parsed).toBe(seeds);
    expect(free).toBe(0);
  }, 300_000);
});

function parses(text: string): boolean {
  try {
    return (JSON.parse(text) as { name?: unknown }).name === "list_files";
  } catch {
    return false;
  }
}

async function collectFrom(p: typeof provider, req: ChatRequest): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const e of p.stream(req)) events.push(e);
  return events;
}
