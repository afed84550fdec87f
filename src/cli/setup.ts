// `agent0 setup` (and `agent0 acp --setup`, the ACP "terminal" auth method an editor runs): the
// first-run choice of where the model runs — a server found on this machine (Ollama, LM Studio,
// llama.cpp's server, vLLM), one at an address the user types, or the built-in engine with a
// .gguf file — and which model, saved to the config file. Numbered choices read line by line, so
// an editor's terminal, a plain pipe and a script all work. Nothing is written until the end, and
// a config file that does not parse is never overwritten.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { configFilePath, dataDir } from "../context/dirs.js";
import { loadConfig, saveConfigKeys, type Config } from "../context/config.js";
import type { RunConfig } from "../protocol/run-config.js";
import { sanitize } from "../render/sanitize.js";
import type { CliOptions } from "./config.js";
import { setupLine } from "./setup-state.js";
import { startup } from "./startup.js";
import { discoverLocalServers, discoveryPorts, engineDir, engineInstalled, isOllama, listModels } from "./tool-use.js";

type Where =
  | { kind: "ollama"; host: string; models: string[] }
  | { kind: "openai"; name: string; baseUrl: string; models: string[] }
  | { kind: "engine"; installed: boolean }
  | { kind: "address" };

export interface SetupIo {
  say(text: string): void;
  /** The next line typed, or undefined at the end of input. */
  ask(question: string): Promise<string | undefined>;
}

const LIST_MS = 3000;

async function modelNames(config: RunConfig): Promise<string[] | undefined> {
  try {
    return (await listModels(config, AbortSignal.timeout(LIST_MS))).map((m) => m.name);
  } catch {
    return undefined;
  }
}

/** What answers on this machine: Ollama where the config (or OLLAMA_HOST) says, the usual local servers. */
async function findPlaces(base: RunConfig, env: NodeJS.ProcessEnv): Promise<Where[]> {
  const host = base.host;
  const [ollama, found] = await Promise.all([
    modelNames({ ...base, provider: "ollama", host }),
    discoverLocalServers({ ports: discoveryPorts(env) }),
  ]);
  const places: Where[] = [];
  if (ollama) places.push({ kind: "ollama", host, models: ollama });
  for (const f of found) places.push({ kind: "openai", name: f.name, baseUrl: f.baseUrl, models: f.models });
  places.push({ kind: "engine", installed: engineInstalled(engineDir(dataDir(env), env)) });
  places.push({ kind: "address" });
  return places;
}

function placeLabel(w: Where): string {
  const count = (models: string[]) => (models.length === 1 ? "1 model" : `${models.length} models`);
  switch (w.kind) {
    case "ollama":
      return `Ollama at ${w.host} — ${count(w.models)}`;
    case "openai":
      return `${w.name} at ${w.baseUrl} — ${count(w.models)}`;
    case "engine":
      return `The built-in engine (llama.cpp) with a .gguf file${w.installed ? "" : " — not installed yet: `agent0 engine install`"}`;
    case "address":
      return "A server at another address (Ollama or OpenAI-compatible)";
  }
}

/** A number from 1 to n (Enter: `fallback`); asks again on anything else; undefined at the end of input. */
async function pick(io: SetupIo, question: string, n: number, fallback = 1): Promise<number | undefined> {
  for (;;) {
    const line = await io.ask(`${question} [1-${n}, Enter for ${fallback}]: `);
    if (line === undefined) return undefined;
    const t = line.trim();
    if (t === "") return fallback;
    const k = Number(t);
    if (Number.isInteger(k) && k >= 1 && k <= n) return k;
    io.say(`  "${t}" is not one of 1-${n}.`);
  }
}

async function chooseModel(io: SetupIo, models: string[], current: string): Promise<string | undefined> {
  if (models.length === 0) {
    const typed = await io.ask("The server lists no models. Model name: ");
    return typed?.trim() || undefined;
  }
  models.forEach((m, i) => io.say(`  ${i + 1}) ${m}${m === current ? "  (current)" : ""}`));
  const k = await pick(io, "Model", models.length, Math.max(1, models.indexOf(current) + 1));
  return k === undefined ? undefined : models[k - 1];
}

/** The keys to save for a place, or undefined when the user stopped. */
async function keysFor(io: SetupIo, w: Where, base: RunConfig, cwd: string): Promise<Partial<Config> | undefined> {
  switch (w.kind) {
    case "ollama": {
      const model = await chooseModel(io, w.models, base.model);
      return model ? { provider: "ollama", host: w.host, baseUrl: undefined, model } : undefined;
    }
    case "openai": {
      const model = await chooseModel(io, w.models, base.model);
      return model ? { provider: "openai", baseUrl: w.baseUrl, model } : undefined;
    }
    case "engine": {
      for (;;) {
        const typed = (await io.ask("Path to a .gguf model file: "))?.trim();
        if (!typed) return undefined;
        const file = path.resolve(cwd, typed);
        if (file.endsWith(".gguf") && fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
          if (!w.installed)
            io.say("  The engine is not installed yet: run `agent0 engine install` before the first run.");
          return { provider: "embedded", model: file };
        }
        io.say(`  ${file} is not a .gguf file.`);
      }
    }
    case "address": {
      const typed = (await io.ask("Address (e.g. http://192.168.1.20:11434): "))?.trim().replace(/\/+$/, "");
      if (!typed) return undefined;
      if (await isOllama(typed)) {
        const models = (await modelNames({ ...base, provider: "ollama", host: typed })) ?? [];
        return keysFor(io, { kind: "ollama", host: typed, models }, base, cwd);
      }
      const baseUrl = typed.endsWith("/v1") ? typed : `${typed}/v1`;
      const models = await modelNames({ ...base, provider: "openai", baseUrl });
      if (!models) io.say(`  Nothing answers at ${baseUrl}; saving it anyway.`);
      return keysFor(io, { kind: "openai", name: "the server", baseUrl, models: models ?? [] }, base, cwd);
    }
  }
}

/** The setup conversation; returns the exit code (0 saved, 1 stopped or refused). */
export async function setup(flags: CliOptions, env: NodeJS.ProcessEnv, io: SetupIo, cwd: string): Promise<number> {
  const file = configFilePath(env);
  const broken = loadConfig(file).warnings.find(
    (w) => w.startsWith(`${file}: not valid JSON`) || w.includes("expected a JSON object"),
  );
  if (broken) {
    io.say(`agent0 setup: ${broken}.\nFix or move that file first: setup will not overwrite it.`);
    return 1;
  }
  const base = startup(flags, true, env).config;
  io.say(`agent0 setup — where agent0's model runs (saved to ${file}).\nNow: ${setupLine(base)}.\n`);
  const places = await findPlaces(base, env);
  places.forEach((w, i) => io.say(`  ${i + 1}) ${placeLabel(w)}`));
  const k = await pick(io, "Where", places.length);
  const keys = k === undefined ? undefined : await keysFor(io, places[k - 1]!, base, cwd);
  if (!keys) {
    io.say("\nNothing saved.");
    return 1;
  }
  await saveConfigKeys(file, keys);
  io.say(
    `\nSaved: ${setupLine({ ...base, ...keys, model: keys.model ?? base.model })}.\nStart agent0 in a project folder, or open your editor's agent panel.`,
  );
  return 0;
}

/** `agent0 setup` on this process's terminal (or pipe). */
export async function runSetup(flags: CliOptions): Promise<number> {
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const io: SetupIo = {
    say: (text) => process.stdout.write(sanitize(text) + "\n"),
    ask: async (question) => {
      process.stdout.write(sanitize(question));
      const next = await lines.next();
      return next.done ? undefined : next.value;
    },
  };
  try {
    return await setup(flags, process.env, io, process.cwd());
  } finally {
    rl.close();
  }
}
