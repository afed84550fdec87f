// Replies that cannot be malformed (issue 38 §1, check 1): against the fake servers over real HTTP,
// with the real providers. A JSON-protocol model's every request carries the protocol's schema
// (Ollama's `format`: https://docs.ollama.com/capabilities/structured-outputs; OpenAI-compatible
// `response_format` json_schema strict: llama.cpp tools/server/README.md, vLLM's and LM Studio's
// structured output docs); a native-tools model's unreadable call gets one retry under the call
// schema and that call runs; a server refusing the constraint gets the request again without it.
import { afterEach, describe, expect, it } from "vitest";
import { runAgent } from "../../src/agent/loop.js";
import { protocolConstraint } from "../../src/agent/replies/protocol-schema.js";
import { createProvider } from "../../src/providers/index.js";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import { createSessionMemory } from "../../src/tools/session-memory.js";
import { readFileTool } from "../../src/tools/files/read.js";
import { listFilesTool } from "../../src/tools/files/list.js";
import { toolSpecs } from "../../src/tools/runner.js";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { grammarRefused, startFakeOpenAI, type FakeOpenAI } from "../fakes/openai-server.js";
import { tempProject, testConfig } from "../tools/ctx.js";

let fake: FakeOllama | FakeOpenAI | undefined;
let cleanup = (): void => {};
afterEach(async () => {
  cleanup();
  await fake?.close();
  fake = undefined;
});

const TOOLS = [readFileTool, listFilesTool];
const call = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ thoughts: ["need it"], tool_name: name, tool_args: args });
const answer = (text: string) => JSON.stringify({ thoughts: [], tool_name: "response", tool_args: { text } });

async function run(config: RunConfig, prompt = "what does a.txt say?", memory = createSessionMemory("s")) {
  const events: RunEvent[] = [];
  const result = await runAgent([{ role: "user", content: prompt }], config, {
    provider: createProvider(config, { OPENAI_API_KEY: "sk-test" }),
    tools: TOOLS,
    memory,
    emit: (e) => events.push(e),
    signal: new AbortController().signal,
    askUser: async () => ({ decision: "once" }),
  });
  const notices = events.flatMap((e) => (e.type === "notice" ? [e.text] : []));
  return { result, events, notices };
}

/** The tool names a schema offers, read back from its branches. */
function offered(schema: unknown): string[] {
  const s = schema as { anyOf?: unknown[] };
  const branches = (s.anyOf ?? [schema]) as { properties: { tool_name: { const: string } } }[];
  return branches.map((b) => b.properties.tool_name.const);
}

/** A JSON-protocol model on an OpenAI-compatible server. */
function openaiConfig(url: string): RunConfig {
  return {
    ...testConfig(withProject()),
    provider: "openai",
    baseUrl: `${url}/v1`,
    model: "gpt-fake",
    toolProtocol: "json",
  };
}

function withProject(): string {
  const project = tempProject({ "a.txt": "canary-38\n" });
  cleanup = project.cleanup;
  return project.dir;
}

describe("the JSON reply protocol, constrained", () => {
  it("Ollama: every request's format holds a schema naming each tool and the answer; the call runs", async () => {
    const ollama = await startFakeOllama({
      models: [{ name: "small:1b", capabilities: ["completion"] }],
      replies: [
        { steps: [{ text: call("read_file", { path: "a.txt" }) }], chunkChars: 7 },
        { steps: [{ text: answer("done") }], chunkChars: 7 },
      ],
    });
    fake = ollama;
    const config = { ...testConfig(withProject()), host: ollama.url, model: "small:1b", toolProtocol: "json" as const };
    const { result, events } = await run(config);
    // It streams: the status line is told the tool's name once, as soon as it is complete.
    const statuses = events.flatMap((e) => (e.type === "status" && e.phase !== "loading" ? [e] : []));
    expect(statuses.filter((e) => e.phase !== "tool")).toEqual([
      { type: "status", phase: "thinking", writing: "read_file" },
      { type: "status", phase: "answering" },
    ]);
    expect(ollama.chats).toHaveLength(2);
    for (const chat of ollama.chats) {
      expect(offered(chat.body.format).sort()).toEqual(["list_files", "read_file", "response"]);
      expect(chat.tools).toBeUndefined();
    }
    expect(JSON.stringify(ollama.chats[1]!.messages)).toContain("canary-38");
    expect(result.conversation.at(-1)).toMatchObject({ role: "assistant", content: "done" });
  });

  it("OpenAI-compatible: response_format is a strict json_schema naming each tool and the answer", async () => {
    const server = await startFakeOpenAI({
      replies: [{ text: call("read_file", { path: "a.txt" }) }, { text: answer("ok") }],
    });
    fake = server;
    const config = openaiConfig(server.url);
    const { result } = await run(config);
    const bodies = server.requests.filter((r) => r.method === "POST").map((r) => r.body as Record<string, unknown>);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      const format = body.response_format as { type: string; json_schema: { strict: boolean; schema: unknown } };
      expect(format.type).toBe("json_schema");
      expect(format.json_schema.strict).toBe(true);
      expect(offered(format.json_schema.schema).sort()).toEqual(["list_files", "read_file", "response"]);
    }
    expect(result.conversation.at(-1)).toMatchObject({ role: "assistant", content: "ok" });
  });

  it("an Ollama before structured outputs (0.4.7, from /api/version): never sent the schema, one notice", async () => {
    const ollama = await startFakeOllama({
      version: "0.4.7",
      models: [{ name: "small:1b", capabilities: ["completion"] }],
      replies: [
        { steps: [{ text: call("read_file", { path: "a.txt" }) }] },
        { steps: [{ text: call("read_file", { path: "a.txt" }) }] },
        { steps: [{ text: answer("done") }] },
      ],
    });
    fake = ollama;
    const config = { ...testConfig(withProject()), host: ollama.url, model: "small:1b", toolProtocol: "json" as const };
    const { result, notices } = await run(config);
    // Known before the first request: no request was refused, none carried the schema.
    const sent = ollama.requests.filter((r) => r.path === "/api/chat");
    expect(sent).toHaveLength(ollama.chats.length);
    expect(ollama.chats.map((c) => c.body.format)).toEqual([undefined, undefined, undefined]);
    expect(result.conversation.at(-1)).toMatchObject({ role: "assistant", content: "done" });
    expect(notices.filter((n) => n.includes("only from 0.5.0"))).toHaveLength(1);
    // The server was asked once in the session, not at every step.
    expect(ollama.requests.filter((r) => r.path === "/api/version")).toHaveLength(1);
  });

  it("llama.cpp refusing the grammar (400): the same request again without response_format", async () => {
    const server = await startFakeOpenAI({ replies: [grammarRefused(), { text: answer("fine") }] });
    fake = server;
    const config = openaiConfig(server.url);
    const { result, notices } = await run(config);
    const bodies = server.requests.filter((r) => r.method === "POST").map((r) => r.body as Record<string, unknown>);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]!.response_format).toBeDefined();
    expect(bodies[1]!.response_format).toBeUndefined();
    expect(bodies[1]!.messages).toEqual(bodies[0]!.messages);
    expect(result.conversation.at(-1)).toMatchObject({ role: "assistant", content: "fine" });
    expect(notices.filter((n) => n.includes("refused to constrain"))).toHaveLength(1);
  });

  it("the refusal is remembered for that server and model: the same model goes without, another still gets it", async () => {
    // Issue 38 §1: "the session remembers it for that server and model" — a server may take a schema
    // for one model and refuse it for another (LM Studio's MLX models and GGUF models differ).
    const server = await startFakeOpenAI({
      replies: [grammarRefused(), { text: answer("a") }, { text: answer("b") }, { text: answer("a again") }],
    });
    fake = server;
    const memory = createSessionMemory("s");
    const first = openaiConfig(server.url);
    await run(first, "one", memory);
    await run({ ...first, model: "other-fake" }, "two", memory);
    await run(first, "three", memory);
    const formats = server.requests
      .filter((r) => r.method === "POST")
      .map((r) => [
        (r.body as { model: string }).model,
        (r.body as { response_format?: unknown }).response_format !== undefined,
      ]);
    expect(formats).toEqual([
      ["gpt-fake", true],
      ["gpt-fake", false],
      ["other-fake", true],
      ["gpt-fake", false],
    ]);
  });
});

describe("a native-tools model's unreadable call", () => {
  it("gets one retry under the call schema; its call runs; the next step is free again", async () => {
    const ollama = await startFakeOllama({
      models: [{ name: "coder:7b", capabilities: ["completion", "tools"] }],
      replies: [
        // Call-like markup no reader takes (broken JSON inside the tag).
        { steps: [{ text: '<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"</tool_call>' }] },
        { steps: [{ text: JSON.stringify({ thoughts: [], tool_name: "read_file", tool_args: { path: "a.txt" } }) }] },
        { steps: [{ text: "It says canary-38." }] },
      ],
    });
    fake = ollama;
    const config = { ...testConfig(withProject()), host: ollama.url, model: "coder:7b" };
    const { result } = await run(config);
    const formats = ollama.chats.map((c) => c.body.format);
    expect(formats[0]).toBeUndefined();
    expect(offered(formats[1])).toEqual(["read_file", "list_files"]);
    expect(formats[2]).toBeUndefined();
    expect(JSON.stringify(ollama.chats[2]!.messages)).toContain("canary-38");
    expect(result.conversation.at(-1)).toMatchObject({ role: "assistant", content: "It says canary-38." });
  });
});

describe("the protocol schema", () => {
  it("is a choice over the tools, each with its own argument schema, plus the answer", () => {
    const specs = toolSpecs(TOOLS);
    const { schema } = protocolConstraint(specs);
    const branches = (schema as { anyOf: { properties: { tool_args: unknown } }[] }).anyOf;
    expect(branches[0]!.properties.tool_args).toMatchObject({ properties: specs[0]!.parameters.properties });
    expect(offered(protocolConstraint(specs, true).schema)).toEqual(["read_file", "list_files"]);
  });
});
