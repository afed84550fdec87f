// The model run in agent0's own process by llama.cpp (node-llama-cpp), on the agent's thread. One
// context sequence is kept between turns, so a turn evaluates only the tokens after the shared prefix.
import fs from "node:fs";
import os from "node:os";
import type { ConversationMessage } from "../../protocol/conversation.js";
import { newCallId } from "../tool-args.js";
import type { ChatRequest, ModelInfo, Provider, ProviderEvent } from "../types.js";
import { formatBytes } from "./catalogue.js";
import { engineThreads, installedGpuBuilds, loadEngineModule, type EngineModule } from "./engine.js";
import { toGbnfJsonSchema } from "./gbnf-schema.js";
import { listLocalModels, resolveModelFile } from "./models-store.js";
import { promptFit, promptTooLong } from "./prompt-fit.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- node-llama-cpp's types are not available at build time */
interface Loaded {
  path: string;
  numCtx: number;
  engine: EngineModule;
  llama: any;
  model: any;
  context: any;
  sequence: any;
  chat: any;
  /**
   * The grammars built for this engine, by the constraint's schema: a run asks for the same one at
   * every step (its tool set's), and building one costs milliseconds.
   */
  grammars: Map<string, Promise<any>>;
}

export interface EmbeddedOptions {
  engineDir: string;
  /** agent0's data folder: catalogue and `hf:` models are found in its `models/` (models-store.ts). */
  dataDir: string;
  /** Free memory now (default os.freemem; tests give a small figure). */
  freeMemoryBytes?: () => number;
  /** Sampling seed (tests fix it). */
  seed?: number;
  /** Upper bound on a reply's tokens (tests bound it). */
  maxTokens?: number;
  /**
   * Threads to compute with (default engineThreads(): the cores useful for math). Tests give 1: on a
   * machine busier than its cores, ggml's threads wait on each other — 29 tokens of the tiny model
   * took 14 s with 2 threads and 88 ms with 1 at a load average of 20 on 2 cores.
   */
  threads?: number;
  /**
   * llama.cpp's flash attention (default: the engine's own choice, "auto"). Tests give false: the
   * tiny model's 16-wide heads take the CPU kernel's slow path, 3–4× the time per token of plain attention.
   */
  flashAttention?: boolean;
}

/**
 * What a model needs (the catalogue's figure, else the file and a quarter more for the KV cache and
 * buffers, the catalogue's own rule) against the memory free now: refused before loading, with both figures.
 */
export function memoryRefusal(
  fileBytes: number,
  freeBytes: number,
  needBytes = Math.round(fileBytes * 1.25),
): string | undefined {
  if (needBytes <= freeBytes) return undefined;
  return `The model needs ${formatBytes(needBytes)} of memory and ${formatBytes(freeBytes)} is free: close other programs or pick a smaller model (agent0 models).`;
}

/** agent0's neutral conversation as node-llama-cpp's chat history; a call's result rides on the call. */
export function toChatHistory(messages: ConversationMessage[]): any[] {
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === "tool" && m.toolCallId) results.set(m.toolCallId, m.content);
  const history: any[] = [];
  for (const m of messages) {
    if (m.role === "system") history.push({ type: "system", text: m.content });
    else if (m.role === "user") history.push({ type: "user", text: m.content });
    else if (m.role === "assistant") {
      const response: any[] = m.content ? [m.content] : [];
      for (const call of m.toolCalls ?? []) {
        response.push({ type: "functionCall", name: call.name, params: call.args, result: results.get(call.id) ?? "" });
      }
      history.push({ type: "model", response });
    }
  }
  if (history.at(-1)?.type !== "model") history.push({ type: "model", response: [] });
  return history;
}

/**
 * Whether the model's chat template renders tools (Qwen2.5's `{%- if tools %}`, Llama 3.1's
 * `{%- if tools is not none %}`, Mistral's `[AVAILABLE_TOOLS]` from `tools`): then node-llama-cpp's
 * function calling speaks the model's own call syntax. A template without them (plain ChatML), or none,
 * gets agent0's JSON protocol under the grammar instead: a syntax the model was never taught is no call.
 */
export function templateTakesTools(template: unknown): boolean {
  return typeof template === "string" && /\btools\b/.test(template);
}

export function createEmbeddedProvider(opts: EmbeddedOptions): Provider & { dispose(): Promise<void> } {
  let loaded: Loaded | undefined;

  async function load(name: string, numCtx: number): Promise<Loaded> {
    const file = resolveModelFile(opts.dataDir, name);
    if ("error" in file) throw Object.assign(new Error(file.error), { kind: "model-not-found", hint: file.hint });
    const modelPath = file.path;
    if (loaded && loaded.path === modelPath && loaded.numCtx === numCtx) return loaded;
    await dispose();
    const free = (opts.freeMemoryBytes ?? os.freemem)();
    const refusal = memoryRefusal(fs.statSync(modelPath).size, free, file.entry?.memoryBytes);
    if (refusal) throw Object.assign(new Error(refusal), { kind: "server" });
    const engine = await loadEngineModule(opts.engineDir);
    // A GPU build is there only where `agent0 engine install` found its driver: then the engine picks it.
    const gpu = installedGpuBuilds(opts.engineDir).length ? "auto" : false;
    const llama = await engine.getLlama({ gpu, build: "never", logLevel: "error" });
    const model = await llama.loadModel({ modelPath });
    const contextSize = Math.min(numCtx, model.trainContextSize ?? numCtx);
    const context = await model.createContext({
      contextSize,
      threads: opts.threads ?? engineThreads(llama.cpuMathCores),
      ...(opts.flashAttention !== undefined && { flashAttention: opts.flashAttention }),
    });
    const sequence = context.getSequence();
    const chat = new engine.LlamaChat({ contextSequence: sequence });
    loaded = { path: modelPath, numCtx, engine, llama, model, context, sequence, chat, grammars: new Map() };
    return loaded;
  }

  /** A generation stopped by Esc that the engine is still winding down (its current batch). */
  let windingDown: Promise<unknown> | undefined;

  async function dispose(): Promise<void> {
    const was = loaded;
    loaded = undefined;
    await windingDown;
    await was?.llama.dispose();
  }

  /**
   * Esc ends the stream at once: the engine stops at its next token (a batch of a long prompt can
   * take seconds on a CPU), and the next request waits for it, so the kept sequence is never read
   * while the engine still writes it.
   */
  async function* stream(req: ChatRequest): AsyncIterable<ProviderEvent> {
    const stopped = new Promise<"stopped">((resolve) => {
      if (req.signal.aborted) resolve("stopped");
      req.signal.addEventListener("abort", () => resolve("stopped"), { once: true });
    });
    const aborted: ProviderEvent = { type: "error", error: { kind: "aborted", message: "Stopped." } };
    const ready = prepare(req);
    // Loading a model takes seconds: Esc does not wait for it (a later request finds it loaded).
    ready.catch(() => {});
    const prepared = await Promise.race([ready, stopped]);
    if (prepared === "stopped") return yield aborted;
    if ("error" in prepared) return yield prepared.error;
    const queue: ProviderEvent[] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    const push = (e: ProviderEvent) => {
      if (finished) return;
      queue.push(e);
      wake?.();
    };
    const end = (last: ProviderEvent) => {
      push(last);
      finished = true;
      wake?.();
    };
    const run = generate(prepared, req, push).then(end, (err: Error) =>
      end({ type: "error", error: { kind: req.signal.aborted ? "aborted" : "server", message: err.message } }),
    );
    windingDown = run;
    stopped.then(
      () => end(aborted),
      () => {},
    );
    while (true) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (finished) break;
      await new Promise<void>((r) => (wake = r));
      wake = undefined;
    }
  }

  function grammarFor(l: Loaded, schema: Record<string, unknown>): Promise<any> {
    const key = JSON.stringify(schema);
    const known = l.grammars.get(key);
    if (known) return known;
    const built = Promise.resolve().then(() => l.llama.createGrammarForJsonSchema(toGbnfJsonSchema(schema)));
    l.grammars.set(key, built);
    // A schema the engine refused is tried again next time, not remembered as refused.
    built.catch(() => l.grammars.delete(key));
    return built;
  }

  interface Prepared {
    l: Loaded;
    history: any[];
    grammar: any;
    functions: Record<string, unknown> | undefined;
  }

  /** The model loaded (after any generation still winding down), the grammar and the history, or why not. */
  async function prepare(req: ChatRequest): Promise<Prepared | { error: ProviderEvent }> {
    await windingDown;
    let l: Loaded;
    try {
      l = await load(req.model, req.numCtx);
    } catch (err) {
      const e = err as Error & { kind?: "server" | "model-not-found"; hint?: string };
      return {
        error: {
          type: "error",
          error: { kind: e.kind ?? "server", message: e.message, ...(e.hint && { hint: e.hint }) },
        },
      };
    }
    const grammar = req.constraint ? await grammarFor(l, req.constraint.schema) : undefined;
    const functions =
      !grammar && req.tools.length
        ? Object.fromEntries(req.tools.map((t) => [t.name, { description: t.description, params: t.parameters }]))
        : undefined;
    const history = toChatHistory(req.messages);
    const fit = promptFit(l.chat, history, functions);
    if (fit.tokens > fit.room)
      return { error: { type: "error", error: { kind: "server", message: promptTooLong(fit) } } };
    return { l, history, grammar, functions };
  }

  /** One reply from the kept sequence: text as it comes, then the calls and the engine's token counts. */
  async function generate(p: Prepared, req: ChatRequest, push: (e: ProviderEvent) => void): Promise<ProviderEvent> {
    const { l } = p;
    const before = l.sequence.tokenMeter.getState();
    const r = await l.chat.generateResponse(p.history, {
      grammar: p.grammar,
      functions: p.functions,
      signal: req.signal,
      stopOnAbortSignal: true,
      temperature: req.temperature ?? 0.8,
      seed: opts.seed,
      maxTokens: opts.maxTokens,
      onTextChunk: (text: string) => push({ type: "text", delta: text }),
    });
    for (const call of r.functionCalls ?? []) {
      push({ type: "tool-call", call: { id: newCallId(), name: call.functionName, args: call.params ?? {} } });
    }
    const after = l.sequence.tokenMeter.getState();
    const evaluated = after.usedInputTokens - before.usedInputTokens;
    const completion = after.usedOutputTokens - before.usedOutputTokens;
    const prompt = Math.max(evaluated, l.sequence.nextTokenIndex - completion);
    if (req.signal.aborted) return { type: "error", error: { kind: "aborted", message: "Stopped." } };
    return { type: "done", promptTokens: prompt, completionTokens: completion, cachedTokens: prompt - evaluated };
  }

  /** The window the file was trained with, read from its header (nothing loaded). */
  async function modelInfo(model: string): Promise<ModelInfo> {
    const file = resolveModelFile(opts.dataDir, model);
    if ("error" in file) throw Object.assign(new Error(file.error), { kind: "model-not-found", hint: file.hint });
    const engine = await loadEngineModule(opts.engineDir);
    const info = await engine.readGgufFileInfo(file.path, { readTensorInfo: false });
    const contextLength = Number(info.architectureMetadata?.context_length) || file.entry?.contextLength;
    const capabilities = templateTakesTools(info.metadata?.tokenizer?.chat_template)
      ? ["completion", "tools"]
      : ["completion"];
    return { name: model, contextLength, capabilities, size: fs.statSync(file.path).size };
  }

  /** The models on disk, by the name `--model` takes for them. */
  function listModels(): Promise<ModelInfo[]> {
    const rows = listLocalModels(opts.dataDir).filter((r) => r.path);
    return Promise.resolve(
      rows.map((r) => ({
        name: r.name,
        contextLength: r.entry?.contextLength,
        capabilities: ["completion", "tools"],
        size: r.sizeBytes,
      })),
    );
  }

  // llama.cpp's grammars, in process: every schema toGbnfJsonSchema maps.
  const constraintSupport = () => Promise.resolve({ supported: true, why: "the embedded engine" });
  return { name: "embedded", stream, listModels, modelInfo, constraintSupport, dispose };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
