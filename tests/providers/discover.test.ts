// Finding local servers on loopback when Ollama is not at its default address (issue 25 §5), and
// telling an Ollama behind --provider openai. Each fake answers as its server does (see
// tests/fakes/openai-server.ts for the sources); the probe's ports are the fakes' OS-chosen ones.
import { afterEach, describe, expect, it } from "vitest";
import { closedPort } from "../fakes/ports.js";
import { describeFound, discoverLocalServers, isOllama } from "../../src/providers/discover.js";
import { warnIfOllamaBehindOpenAI, withLocalServers } from "../../src/agent/local-servers.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/openai-server.js";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import { testConfig } from "../tools/ctx.js";

const open: (FakeOpenAI | FakeOllama)[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

const portOf = (url: string) => Number(new URL(url).port);

describe("discoverLocalServers", () => {
  it("names LM Studio, llama.cpp's server and vLLM, and how each was recognised", async () => {
    const lm = await startFakeOpenAI({
      server: { kind: "lmstudio", model: "qwen2.5-7b-instruct", contextLength: 4096 },
    });
    const llama = await startFakeOpenAI({ server: { kind: "llamacpp", model: "qwen2.5-coder", contextLength: 8192 } });
    const vllm = await startFakeOpenAI({ server: { kind: "vllm", model: "Qwen/Qwen2.5-7B", contextLength: 32768 } });
    open.push(lm, llama, vllm);
    const nothing = await closedPort();
    const found = await discoverLocalServers({ ports: [portOf(lm.url), portOf(llama.url), portOf(vllm.url), nothing] });
    expect(found.map((f) => f.name)).toEqual(["LM Studio", "llama.cpp's server", "vLLM"]);
    expect(found[0]!.how).toContain("/api/v0/models answered");
    expect(found[0]!.models[0]).toBe("qwen2.5-7b-instruct");
    expect(found[1]!.how).toContain('"llamacpp"');
    expect(found[2]!.how).toContain('"vllm"');
    expect(describeFound(found)).toContain(
      `agent0 --provider openai --base-url ${vllm.url}/v1 --model Qwen/Qwen2.5-7B`,
    );
  });

  it("turns a failure to reach Ollama's default address into an offer of what was found", async () => {
    const llama = await startFakeOpenAI({ server: { kind: "llamacpp", model: "qwen2.5-coder", contextLength: 8192 } });
    open.push(llama);
    const host = `http://127.0.0.1:${await closedPort()}`;
    const config = { ...testConfig("/p"), host };
    const failure = { message: `Cannot reach Ollama at ${host}`, hint: "Start it with `ollama serve`." };
    const said = await withLocalServers(config, failure, { ports: [portOf(llama.url)], defaultHost: host });
    expect(said.message).toContain("Found on this machine instead: llama.cpp's server.");
    expect(said.hint).toContain(`--base-url ${llama.url}/v1 --model qwen2.5-coder`);
    // A host the user chose is not second-guessed.
    expect(await withLocalServers(config, failure, { ports: [portOf(llama.url)] })).toEqual(failure);
  });
});

describe("an Ollama behind --provider openai", () => {
  it("is recognised by its own API, and the user is told to use it", async () => {
    const ollama = await startFakeOllama({ models: [{ name: "qwen3:8b" }] });
    const other = await startFakeOpenAI({ server: { kind: "vllm", model: "m", contextLength: 8192 } });
    open.push(ollama, other);
    expect(await isOllama(`${ollama.url}/v1`)).toBe(true);
    expect(await isOllama(`${other.url}/v1`)).toBe(false);
    const events: RunEvent[] = [];
    await warnIfOllamaBehindOpenAI({ ...testConfig("/p"), provider: "openai", baseUrl: `${ollama.url}/v1` }, (e) =>
      events.push(e),
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.type === "notice" && events[0]!.text).toContain(`--provider ollama --host ${ollama.url}`);
  });
});
