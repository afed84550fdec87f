// The model run in agent0's own process by llama.cpp (node-llama-cpp), on the agent's thread. One
// context sequence is kept between turns, so a turn evaluates only the tokens after the shared prefix.
import fs from "node:fs";
import os from "node:os";
import type { ConversationMessage } from "../../protocol/conversation.js";
import { newCallId } from "../tool-args.js";
import type { ChatRequest, ModelInfo, Provider, ProviderEvent } from "../types.js";
import { engineThreads, loadEngineModule, type EngineModule } from "./engine.js";

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
}

export interface EmbeddedOptions {
  engineDir: string;
  /** Sampling seed (tests fix it). */
  seed?: number;
  /** Upper bound on a reply's tokens (tests bound it). */
  maxTokens?: number;
}

/** The model file's bytes against the memory free now: refused before loading, with both figures. */
export function memoryRefusal(fileBytes: number, freeBytes = os.freemem()): string | undefined {
  if (fileBytes <= freeBytes) return undefined;
  const gb = (n: number) => `${(n / 1e9).toFixed(1)} GB`;
  return `The model needs ${gb(fileBytes)} of memory and ${gb(freeBytes)} is free.`;
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

export function createEmbeddedProvider(opts: EmbeddedOptions): Provider & { dispose(): Promise<void> } {
  let loaded: Loaded | undefined;

  async function load(modelPath: string, numCtx: number): Promise<Loaded> {
    if (loaded && loaded.path === modelPath && loaded.numCtx === numCtx) return loaded;
    await dispose();
    const size = fs.statSync(modelPath).size;
    const refusal = memoryRefusal(size);
    if (refusal) throw Object.assign(new Error(refusal), { kind: "server" });
    const engine = await loadEngineModule(opts.engineDir);
    const llama = await engine.getLlama({ gpu: false, build: "never", logLevel: "error" });
    const model = await llama.loadModel({ modelPath });
    const contextSize = Math.min(numCtx, model.trainContextSize ?? numCtx);
    const context = await model.createContext({ contextSize, threads: engineThreads() });
    const sequence = context.getSequence();
    const chat = new engine.LlamaChat({ contextSequence: sequence });
    loaded = { path: modelPath, numCtx, engine, llama, model, context, sequence, chat };
    return loaded;
  }

  async function dispose(): Promise<void> {
    const was = loaded;
    loaded = undefined;
    await was?.llama.dispose();
  }

  async function* stream(req: ChatRequest): AsyncIterable<ProviderEvent> {
    let l: Loaded;
    try {
      l = await load(req.model, req.numCtx);
    } catch (err) {
      const e = err as Error & { kind?: "server" | "model-not-found" };
      yield { type: "error", error: { kind: e.kind ?? "server", message: e.message } };
      return;
    }
    const queue: ProviderEvent[] = [];
    let wake: (() => void) | undefined;
    const push = (e: ProviderEvent) => {
      queue.push(e);
      wake?.();
    };
    const before = l.sequence.tokenMeter.getState();
    const grammar = req.constraint ? await l.llama.createGrammarForJsonSchema(req.constraint.schema) : undefined;
    const functions =
      !grammar && req.tools.length
        ? Object.fromEntries(req.tools.map((t) => [t.name, { description: t.description, params: t.parameters }]))
        : undefined;
    let finished = false;
    const run = l.chat
      .generateResponse(toChatHistory(req.messages), {
        grammar,
        functions,
        signal: req.signal,
        stopOnAbortSignal: true,
        temperature: req.temperature ?? 0.8,
        seed: opts.seed,
        maxTokens: opts.maxTokens,
        onTextChunk: (text: string) => push({ type: "text", delta: text }),
      })
      .then(
        (r: any) => {
          for (const call of r.functionCalls ?? []) {
            push({ type: "tool-call", call: { id: newCallId(), name: call.functionName, args: call.params ?? {} } });
          }
          const after = l.sequence.tokenMeter.getState();
          const evaluated = after.usedInputTokens - before.usedInputTokens;
          const completion = after.usedOutputTokens - before.usedOutputTokens;
          const prompt = Math.max(evaluated, l.sequence.nextTokenIndex - completion);
          if (req.signal.aborted) push({ type: "error", error: { kind: "aborted", message: "Stopped." } });
          else
            push({
              type: "done",
              promptTokens: prompt,
              completionTokens: completion,
              cachedTokens: prompt - evaluated,
            });
        },
        (err: Error) =>
          push({
            type: "error",
            error: { kind: req.signal.aborted ? "aborted" : "server", message: err.message },
          }),
      )
      .finally(() => {
        finished = true;
        wake?.();
      });
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
    await run;
  }

  /** The window the file was trained with, read from its header (nothing loaded). */
  async function modelInfo(model: string): Promise<ModelInfo> {
    if (!fs.existsSync(model)) throw Object.assign(new Error(`No model file at ${model}`), { kind: "model-not-found" });
    const engine = await loadEngineModule(opts.engineDir);
    const info = await engine.readGgufFileInfo(model, { readTensorInfo: false });
    const contextLength = Number(info.architectureMetadata?.context_length) || undefined;
    return { name: model, contextLength, capabilities: ["completion", "tools"], size: fs.statSync(model).size };
  }

  return { name: "embedded", stream, listModels: () => Promise.resolve([]), modelInfo, dispose };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
