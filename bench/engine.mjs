// Issue 41: the embedded engine (node-llama-cpp) on the tiny random-weights model the tests write
// (tests/fakes/tiny-gguf.ts): load, time to first token, tokens/s, and Esc (an abort mid-stream) to
// the provider's stream ending. A guard on agent0's path to the engine, not a claim about real
// models. The engine is found as the engine tests find it (tests/engine/engine-dir.ts):
// $AGENT0_ENGINE_DIR, else .engine-cache/ in the checkout. The bench never installs it: without
// it, the section says so and why.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = fileURLToPath(import.meta.url);
const load = (root, rel) => import(pathToFileURL(path.join(root, "dist", ...rel.split("/"))).href);

/** The engine's folder as the engine tests take it. */
export function benchEngineDir(root) {
  return process.env.AGENT0_ENGINE_DIR ?? path.join(root, ".engine-cache");
}

/** Why the engine figures cannot be taken with this build on this machine, or undefined. */
export async function engineSkipReason(root) {
  if (!fs.existsSync(path.join(root, "dist", "providers", "embedded", "provider.js")))
    return "this build has no embedded engine";
  const dir = benchEngineDir(root);
  const { engineInstalled } = await load(root, "providers/embedded/engine.js");
  if (!engineInstalled(dir))
    return `no engine in ${dir} ($AGENT0_ENGINE_DIR, else .engine-cache/): the engine tests install it there, or AGENT0_ENGINE_DIR=${dir} agent0 engine install`;
  return undefined;
}

const PROCESSES = 5;
const REQUESTS = 3;
const REPLY_TOKENS = 64;

/**
 * Fresh processes (the load a user waits for is a cold one), a load sample and a provider sample
 * in turn: the caller reports medians and spread.
 */
export async function benchEngine(root) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-bench-engine-"));
  try {
    const { writeTinyGguf } = await import(
      pathToFileURL(path.join(root, ".bench-build", "fakes", "tiny-gguf.js")).href
    );
    const model = path.join(dir, "tiny.gguf");
    writeTinyGguf(model);
    const samples = [];
    for (let i = 0; i < PROCESSES; i++) {
      const loaded = await jsonFromChild([HERE, "--load", root, model, dir]);
      samples.push({ ...loaded, ...(await jsonFromChild([HERE, "--provider", root, model, dir])) });
    }
    const all = (k) => samples.flatMap((s) => s[k]);
    return {
      modelBytes: fs.statSync(model).size,
      importMs: samples.map((s) => s.importMs),
      loadMs: samples.map((s) => s.loadMs),
      firstTokenColdMs: samples.map((s) => s.firstTokenColdMs),
      firstTokenMs: all("firstTokenMs"),
      tokensPerS: all("tokensPerS"),
      replyTokens: all("replyTokens"),
      promptTokens: samples[0].promptTokens,
      stopMs: all("stopMs"),
      stopsTried: PROCESSES * REQUESTS,
      cleanAfterStop: samples.every((s) => s.cleanAfterStop),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A script run in a fresh node, its last stdout line read as JSON (the bench's samples). */
export function jsonFromChild(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(JSON.parse(out.trim().split("\n").at(-1)));
      else reject(new Error(`${path.basename(args[0])} ${args[1]} exited ${code}: ${err.trim().slice(-400)}`));
    });
  });
}

/** A fresh process: the steps of the provider's load (src/providers/embedded/provider.ts), timed apart. */
async function loadSample(root, model) {
  const { loadEngineModule } = await load(root, "providers/embedded/engine.js");
  const t0 = performance.now();
  const engine = await loadEngineModule(benchEngineDir(root));
  const tImport = performance.now();
  const llama = await engine.getLlama({ gpu: false, build: "never", logLevel: "error" });
  const m = await llama.loadModel({ modelPath: model });
  await m.createContext({ contextSize: 1024, threads: 1 });
  const tLoad = performance.now();
  await llama.dispose();
  return { importMs: tImport - t0, loadMs: tLoad - t0 };
}

/** A fresh process: requests through the provider, the first of which loads everything. */
async function providerSample(root, model, dataDir) {
  const engineDir = benchEngineDir(root);
  const { createEmbeddedProvider } = await load(root, "providers/embedded/provider.js");
  // Tests give one thread: on a machine busier than its cores ggml's threads wait on each other.
  const opts = { engineDir, dataDir, seed: 1, maxTokens: REPLY_TOKENS, threads: 1 };
  const provider = createEmbeddedProvider(opts);
  const request = (text, signal = new AbortController().signal) => ({
    model,
    messages: [
      { role: "system", content: "You are a coding agent." },
      { role: "user", content: text },
    ],
    tools: [],
    numCtx: 1024,
    signal,
    idleTimeoutMs: 60_000,
  });
  /** Time to the first text, then tokens/s over the rest of the reply. */
  async function timed(text) {
    const start = performance.now();
    let first;
    let done;
    for await (const e of provider.stream(request(text))) {
      if (e.type === "text" && first === undefined) first = performance.now();
      if (e.type === "done") done = e;
      if (e.type === "error") throw new Error(e.error.message);
    }
    const end = performance.now();
    const rest = (done?.completionTokens ?? 0) - 1;
    return {
      firstMs: (first ?? end) - start,
      tokensPerS: rest > 0 && first !== undefined ? rest / ((end - first) / 1000) : NaN,
      replyTokens: done?.completionTokens ?? 0,
      promptTokens: done?.promptTokens ?? 0,
    };
  }
  // The first request imports the engine and loads the model: what a user's first turn waits for.
  const cold = await timed("What files are here? (request 0)");
  const warm = [];
  // Each question differs from its first word: the kept sequence shares only the system prompt.
  for (let i = 1; i <= REQUESTS; i++) warm.push(await timed(`${i}: what files are here?`));

  /** Esc: the abort mid-stream to the end of the provider's stream (what the agent waits for). */
  const stopMs = [];
  opts.maxTokens = 4000;
  for (let i = 0; i < REQUESTS; i++) {
    opts.seed = 100 + i;
    const ctl = new AbortController();
    let texts = 0;
    let aborted;
    for await (const e of provider.stream(request(`Stop ${i}: tell me a long story.`, ctl.signal))) {
      if (e.type === "text" && ++texts === 3 && aborted === undefined) {
        aborted = performance.now();
        ctl.abort();
      }
    }
    if (aborted !== undefined) stopMs.push(performance.now() - aborted);
  }
  // The next turn after a stop starts clean: a full reply again.
  opts.maxTokens = REPLY_TOKENS;
  const after = await timed("After the stop: what files are here?");
  await provider.dispose();
  return {
    firstTokenColdMs: cold.firstMs,
    firstTokenMs: warm.map((w) => w.firstMs),
    tokensPerS: warm.map((w) => w.tokensPerS),
    replyTokens: warm.map((w) => w.replyTokens),
    promptTokens: warm[0].promptTokens,
    stopMs,
    cleanAfterStop: after.replyTokens > 0,
  };
}

if (process.argv[2] === "--load" || process.argv[2] === "--provider") {
  const [root, model, dataDir] = process.argv.slice(3);
  const s = process.argv[2] === "--load" ? await loadSample(root, model) : await providerSample(root, model, dataDir);
  console.log(JSON.stringify(s));
  process.exit(0);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // `node bench/engine.mjs [root]`: the figures alone (root: another checkout to compare).
  const root = path.resolve(process.argv[2] ?? ".");
  const why = await engineSkipReason(root);
  console.log(why ? { skipped: why } : await benchEngine(root));
}
