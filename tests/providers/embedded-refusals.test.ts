// What the embedded provider refuses before it loads anything: a model too large for the memory free
// now (both figures said), and a catalogue or hf: model not downloaded yet (what to run said). The
// engine folder here is empty: had the provider tried to load, the error would be "not installed".
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { createEmbeddedProvider } from "../../src/providers/embedded/provider.js";
import { modelFilePath } from "../../src/providers/embedded/models-store.js";
import type { ChatRequest, ProviderEvent } from "../../src/providers/types.js";
import { writeTinyGguf } from "../fakes/tiny-gguf.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-refusals-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function request(model: string): ChatRequest {
  return {
    model,
    messages: [{ role: "user", content: "hi" }],
    tools: [],
    numCtx: 1024,
    signal: new AbortController().signal,
    idleTimeoutMs: 60_000,
  };
}

async function errorOf(p: ReturnType<typeof createEmbeddedProvider>, model: string) {
  const events: ProviderEvent[] = [];
  for await (const e of p.stream(request(model))) events.push(e);
  expect(events).toHaveLength(1);
  const e = events[0]!;
  if (e.type !== "error") throw new Error(`expected an error, got ${e.type}`);
  return e.error;
}

const engineDir = () => path.join(dir, "no-engine");

test("a model too large for the memory free now is refused before loading, with both figures", async () => {
  const file = path.join(dir, "tiny.gguf");
  const size = writeTinyGguf(file);
  const p = createEmbeddedProvider({ engineDir: engineDir(), dataDir: dir, freeMemoryBytes: () => 100_000 });
  const err = await errorOf(p, file);
  expect(err.kind).toBe("server");
  expect(err.message).toContain(`needs ${Math.round((size * 1.25) / 1e3)} KB of memory and 100 KB is free`);
});

test("a catalogue model uses the catalogue's figure for its memory", async () => {
  // A stand-in file where the 7b goes: its need is the catalogue's 6.4 GB, not the file's size.
  const file = modelFilePath(dir, "Qwen/Qwen2.5-Coder-7B-Instruct-GGUF", "qwen2.5-coder-7b-instruct-q4_k_m.gguf");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeTinyGguf(file);
  const p = createEmbeddedProvider({ engineDir: engineDir(), dataDir: dir, freeMemoryBytes: () => 4e9 });
  expect((await errorOf(p, "qwen2.5-coder:7b")).message).toContain("needs 6.4 GB of memory and 4.0 GB is free");
});

test("a model not downloaded yet says so, its size, and what to run", async () => {
  const p = createEmbeddedProvider({ engineDir: engineDir(), dataDir: dir });
  const err = await errorOf(p, "qwen2.5-coder:3b");
  expect(err).toMatchObject({ kind: "model-not-found", message: "qwen2.5-coder:3b is not downloaded yet (2.1 GB)." });
  expect(err.hint).toBe(`Run: agent0 models pull qwen2.5-coder:3b (models go to ${path.join(dir, "models")})`);
  await expect(p.modelInfo("hf:someone/Thing-GGUF")).rejects.toMatchObject({ kind: "model-not-found" });
});

test("with the memory there, loading goes on (here to the missing engine)", async () => {
  const file = path.join(dir, "tiny.gguf");
  writeTinyGguf(file);
  const p = createEmbeddedProvider({ engineDir: engineDir(), dataDir: dir, freeMemoryBytes: () => 1e12 });
  expect((await errorOf(p, file)).message).toContain("The engine is not installed");
});
