// Issue 38, check 2, on the real engine (node-llama-cpp, CPU) with the tiny random-weights model of
// tests/fakes/tiny-gguf.ts: under the JSON protocol's grammar (agent0's own schema for the offered
// tools, mapped by toGbnfJsonSchema) 100 of 100 seeds give a reply that parses, names an offered
// tool or the final answer, and whose call runs; without the grammar the same seeds do not. A
// random model is the hardest writer there is: only the grammar makes its output a call.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createEmbeddedProvider } from "../../src/providers/embedded/provider.js";
import type { ChatRequest } from "../../src/providers/types.js";
import { protocolConstraint } from "../../src/agent/replies/protocol-schema.js";
import { jsonProtocolPrompt, parseJsonProtocolReply } from "../../src/agent/replies/json-protocol.js";
import { runToolCall } from "../../src/agent/tool-call.js";
import { toolSpecs } from "../../src/tools/runner.js";
import { coreTools } from "../../src/tools/catalog.js";
import { makeCtx } from "../tools/ctx.js";
import { writeTinyGguf } from "../fakes/tiny-gguf.js";
import { ensureTestEngine } from "./engine-dir.js";

const SEEDS = Number(process.env.AGENT0_TEST_SEEDS ?? 100);
const OFFERED = ["read_file", "list_files", "glob_files", "grep_files"];
const tools = coreTools.filter((t) => OFFERED.includes(t.name));
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

let dir: string;
let modelPath: string;
const opts = { engineDir: "", dataDir: "", seed: 0, maxTokens: 400, threads: 1 };
let provider: ReturnType<typeof createEmbeddedProvider>;

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
    { role: "system", content: jsonProtocolPrompt(specs) },
    { role: "user", content: "What does a.txt say?" },
  ],
  tools: [],
  numCtx: 4096,
  signal: new AbortController().signal,
  idleTimeoutMs: 60_000,
  ...(constrained ? { constraint } : {}),
});

/** Room for a whole bounded reply under the grammar; without it, room for a short call (about 50 bytes). */
const BUDGET = { constrained: 400, free: 120 };

async function reply(seed: number, constrained: boolean): Promise<string> {
  opts.seed = seed;
  opts.maxTokens = constrained ? BUDGET.constrained : BUDGET.free;
  let text = "";
  for await (const e of provider.stream(request(constrained))) {
    if (e.type === "text") text += e.delta;
    if (e.type === "error") throw new Error(e.error.message);
  }
  return text;
}

describe("the JSON protocol's grammar on the real engine", () => {
  test(`${SEEDS} of ${SEEDS} seeds: a reply that parses, names an offered tool or the answer, and runs`, async () => {
    const failures: string[] = [];
    const named = new Set<string>();
    let free = 0;
    for (let seed = 0; seed < SEEDS; seed++) {
      const text = await reply(seed, true);
      const read = parseJsonProtocolReply(text, OFFERED);
      if (read.kind === "invalid") {
        failures.push(`seed ${seed}: ${read.error}: ${text.slice(0, 200)}`);
        continue;
      }
      named.add(read.kind === "tool" ? read.name : "response");
      if (read.kind === "tool") {
        const ctx = makeCtx(dir, { deny: "not in this test" });
        const outcome = await runToolCall({ id: `c${seed}`, name: read.name, args: read.args }, tools, ctx);
        // It ran: its arguments passed the tool's own validation (a refused approval is a run too).
        if (/^Invalid arguments|unknown tool/.test(outcome.content))
          failures.push(`seed ${seed}: ${outcome.content} for ${text.slice(0, 200)}`);
      }
      if (parseJsonProtocolReply(await reply(seed, false), OFFERED).kind !== "invalid") free++;
    }
    expect(failures).toEqual([]);
    expect(named.size).toBeGreaterThan(1);
    expect(free).toBe(0);
  }, 900_000);
});
