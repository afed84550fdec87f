// The set-up both halves of issue 38's check 2 share (protocol-grammar-seeds.ts under the grammar,
// protocol-free-seeds.ts without it): the real engine (node-llama-cpp, CPU) with the tiny
// random-weights model of tests/fakes/tiny-gguf.ts, the same request, the same seeds. Each half's
// seeds are run in parts, a test file each, so that the cores share them and no file runs long.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createEmbeddedProvider } from "../../src/providers/embedded/provider.js";
import type { ChatRequest } from "../../src/providers/types.js";
import { protocolConstraint } from "../../src/agent/replies/protocol-schema.js";
import { jsonProtocolPrompt } from "../../src/agent/replies/json-protocol.js";
import { toolSpecs } from "../../src/tools/runner.js";
import { coreTools } from "../../src/tools/catalog.js";
import { writeTinyGguf } from "../fakes/tiny-gguf.js";
import { ensureTestEngine } from "./engine-dir.js";

export const SEEDS = Number(process.env.AGENT0_TEST_SEEDS ?? 100);

/** The seeds of part `part` (from 0) of `parts`: together, 0 to SEEDS - 1, each once. */
export function seedRange(part: number, parts: number): { first: number; end: number } {
  const size = Math.ceil(SEEDS / parts);
  return { first: Math.min(SEEDS, part * size), end: Math.min(SEEDS, (part + 1) * size) };
}
export const OFFERED = ["read_file", "list_files", "glob_files", "grep_files"];
export const tools = coreTools.filter((t) => OFFERED.includes(t.name));
const specs = toolSpecs(tools);

/**
 * The protocol's schema with every free string and list bounded: a random model closes a string by
 * chance (one token in ~260), so unbounded its replies would run past any token budget. The
 * structure — the choice of branches, the tool names, the required keys, each tool's own argument
 * schema — is agent0's own.
 */
function bounded(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(bounded);
  if (!schema || typeof schema !== "object") return schema;
  const s = Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === "const" || k === "enum" ? v : bounded(v)]),
  );
  if (s.type === "string" && !("const" in s) && !("enum" in s)) s.maxLength = 12;
  if (s.type === "array") s.maxItems = 2;
  return s;
}
const real = protocolConstraint(specs);
const constraint = { name: real.name, schema: bounded(real.schema) as Record<string, unknown> };

/** Room for a whole bounded reply under the grammar; without it, room for a short call (about 50 bytes). */
const BUDGET = { constrained: 400, free: 120 };

/**
 * The protocol's opening instruction, not its whole prompt: a random-weights model reads no meaning
 * in either, and the whole prompt's 2,803 byte-tokens made every generated token attend over them
 * (57 % of each token's time, 16-wide heads); the grammar, the seeds and the sampler are the same.
 */
const SYSTEM = jsonProtocolPrompt(specs).split("\n\n")[0]!;

/** The model loaded once per file, in a temp folder that also holds the file the calls may read. */
export function seedsEngine(): { dir: () => string; reply: (seed: number, constrained: boolean) => Promise<string> } {
  let dir = "";
  let modelPath = "";
  // Flash attention off: on the CPU, with this model's 16-wide heads, it is 3–4× slower per token.
  const opts = { engineDir: "", dataDir: "", seed: 0, maxTokens: 400, threads: 1, flashAttention: false };
  let provider: ReturnType<typeof createEmbeddedProvider> | undefined;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-seeds-"));
    modelPath = path.join(dir, "tiny.gguf");
    writeTinyGguf(modelPath);
    fs.writeFileSync(path.join(dir, "a.txt"), "hello\n");
    Object.assign(opts, { engineDir: await ensureTestEngine(), dataDir: dir });
    // One loaded model; the provider reads its seed at each request.
    provider = createEmbeddedProvider(opts);
  }, 240_000);

  afterAll(async () => {
    await provider?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const request = (constrained: boolean): ChatRequest => ({
    model: modelPath,
    messages: [
      { role: "system", content: SYSTEM },
      { role: "user", content: "What does a.txt say?" },
    ],
    tools: [],
    numCtx: 4096,
    signal: new AbortController().signal,
    idleTimeoutMs: 60_000,
    ...(constrained ? { constraint } : {}),
  });

  async function reply(seed: number, constrained: boolean): Promise<string> {
    opts.seed = seed;
    opts.maxTokens = constrained ? BUDGET.constrained : BUDGET.free;
    let text = "";
    for await (const e of provider!.stream(request(constrained))) {
      if (e.type === "text") text += e.delta;
      if (e.type === "error") throw new Error(e.error.message);
    }
    return text;
  }
  return { dir: () => dir, reply };
}
