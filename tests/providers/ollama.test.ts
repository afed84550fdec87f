import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createOllamaProvider } from "../../src/providers/ollama/provider.js";
import { chatLine, startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { callsOf, chatRequest, collect, errorOf, readFileTool, textOf, thinkingOf } from "./helpers.js";
import { closedPort } from "../fakes/ports.js";

const models = [
  { name: "qwen3:8b", arch: "qwen3", contextLength: 40960, capabilities: ["completion", "tools", "thinking"] },
  { name: "gemma3:4b", arch: "gemma3", contextLength: 131072, capabilities: ["completion", "vision"] },
  // ollama/ollama api/types.go ShowResponse: `parameters` lists a Modelfile's PARAMETER lines;
  // `renderer` and `parser` name the model's built-in template and tool-call parser.
  { name: "qwen3-coder:30b", contextLength: 262144, numCtx: 65536, renderer: "qwen3-coder", parser: "qwen3-coder" },
];

let fake: FakeOllama;
beforeEach(async () => {
  fake = await startFakeOllama({ models });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fake.close();
});

const provider = () => createOllamaProvider({ host: fake.url });

describe("ollama provider: streaming", () => {
  it("streams text deltas and ends with the token counts", async () => {
    fake.setReplies([{ steps: [{ text: "Hello" }, { text: ", world" }], promptEvalCount: 123, evalCount: 7 }]);
    const events = await collect(provider().stream(chatRequest()));
    expect(events.filter((e) => e.type === "text").map((e) => e.type === "text" && e.delta)).toEqual([
      "Hello",
      ", world",
    ]);
    expect(events.at(-1)).toEqual({ type: "done", promptTokens: 123, completionTokens: 7 });
  });

  it("streams thinking before the answer", async () => {
    fake.setReplies([{ steps: [{ thinking: "Okay, the user" }, { thinking: " wants 17×23." }, { text: "391" }] }]);
    const events = await collect(provider().stream(chatRequest({ think: "on" })));
    expect(thinkingOf(events)).toBe("Okay, the user wants 17×23.");
    expect(textOf(events)).toBe("391");
    expect(events.findIndex((e) => e.type === "thinking")).toBeLessThan(events.findIndex((e) => e.type === "text"));
  });

  it("yields tool calls from any chunk, including the done chunk, and text on the done chunk", async () => {
    fake.setReplies([
      {
        steps: [
          { toolCalls: [{ name: "read_file", arguments: { path: "a.ts" }, id: "call_aaaaaaaa" }] },
          {
            text: "!",
            toolCalls: [{ name: "read_file", arguments: { path: "b.ts" }, id: "call_bbbbbbbb" }],
            done: true,
          },
        ],
      },
    ]);
    const events = await collect(provider().stream(chatRequest({ tools: [readFileTool] })));
    expect(callsOf(events)).toEqual([
      { id: "call_aaaaaaaa", name: "read_file", args: { path: "a.ts" } },
      { id: "call_bbbbbbbb", name: "read_file", args: { path: "b.ts" } },
    ]);
    expect(textOf(events)).toBe("!");
    expect(events.at(-1)?.type).toBe("done");
  });

  it("old Ollama sends calls without id or index: each gets an id of its own, never an empty one", async () => {
    // Two calls of the same tool in one chunk, as Ollama before 0.12.10 wrote them (fake: legacyToolCalls).
    fake.setReplies([
      {
        legacyToolCalls: true,
        steps: [
          {
            toolCalls: [
              { name: "read_file", arguments: { path: "a.ts" } },
              { name: "read_file", arguments: { path: "b.ts" } },
            ],
          },
        ],
      },
    ]);
    const calls = callsOf(await collect(provider().stream(chatRequest({ tools: [readFileTool] }))));
    expect(calls.map((c) => c.args)).toEqual([{ path: "a.ts" }, { path: "b.ts" }]);
    const ids = calls.map((c) => c.id);
    // The result of each must name its own call: ids that exist and differ.
    expect(ids.every((id) => /^call_[a-z0-9]{8,}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(2);
  });

  it("sends num_ctx, stream, the tools and the mapped conversation, and no unset fields", async () => {
    const req = chatRequest({
      numCtx: 32768,
      tools: [readFileTool],
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "read a.ts", typed: "/read a.ts" },
        {
          role: "assistant",
          content: "",
          thinking: "need the file",
          toolCalls: [{ id: "call_12345678", name: "read_file", args: { path: "a.ts" } }],
        },
        { role: "tool", content: "export {}", toolCallId: "call_12345678", toolName: "read_file" },
        { role: "assistant", content: "It is empty.", interrupted: true },
      ],
    });
    await collect(provider().stream(req));
    const body = fake.chats[0]!.body;
    expect(body.options).toEqual({ num_ctx: 32768 });
    expect(body.stream).toBe(true);
    expect(Object.keys(body).sort()).toEqual(["messages", "model", "options", "stream", "tools", "truncate"]);
    // ollama/ollama api/types.go ChatRequest.Truncate: on by default, it drops the oldest messages
    // without a word; off, an overlong prompt is refused with a 400 agent0 compacts for (issue 43).
    expect(body.truncate).toBe(false);
    expect(body.tools).toEqual([
      {
        type: "function",
        function: { name: "read_file", description: "Read a file", parameters: readFileTool.parameters },
      },
    ]);
    expect(fake.chats[0]!.messages).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "read a.ts" },
      {
        role: "assistant",
        content: "",
        thinking: "need the file",
        tool_calls: [{ id: "call_12345678", function: { name: "read_file", arguments: { path: "a.ts" } } }],
      },
      { role: "tool", content: "export {}", tool_name: "read_file", tool_call_id: "call_12345678" },
      { role: "assistant", content: "It is empty." },
    ]);
  });

  it("sends temperature, keep_alive and think only when set", async () => {
    await collect(provider().stream(chatRequest({ temperature: 0.3, keepAlive: "10m", think: "off" })));
    expect(fake.chats[0]!.body).toMatchObject({
      options: { num_ctx: 8192, temperature: 0.3 },
      keep_alive: "10m",
      think: false,
    });
  });

  it("reassembles a UTF-8 character split across two network chunks", async () => {
    const bytes = Buffer.from(chatLine("qwen3:8b", { content: "héllo ✓" }));
    const cut = bytes.indexOf(Buffer.from("é")) + 1;
    fake.setReplies([{ steps: [{ raw: bytes.subarray(0, cut) }, { raw: bytes.subarray(cut), delayMs: 30 }] }]);
    const events = await collect(provider().stream(chatRequest()));
    expect(textOf(events)).toBe("héllo ✓");
  });

  it("skips a malformed line with a notice and prints nothing to the console", async () => {
    const warn = vi.spyOn(console, "warn");
    const log = vi.spyOn(console, "log");
    fake.setReplies([{ steps: [{ text: "a" }, { raw: "{not json\n" }, { text: "b" }] }]);
    const events = await collect(provider().stream(chatRequest()));
    expect(textOf(events)).toBe("ab");
    expect(events).toContainEqual({ type: "notice", text: "Skipped a line from Ollama that is not JSON: {not json" });
    expect(events.at(-1)?.type).toBe("done");
    expect(warn).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });
});

describe("ollama provider: interrupts", () => {
  it("an abort while the model is still loading closes the connection", async () => {
    fake.setReplies([{ steps: [{ text: "late" }], loadDelayMs: 20_000 }]);
    const ctl = new AbortController();
    const done = collect(provider().stream(chatRequest({ signal: ctl.signal })));
    await fake.waitForChats(1);
    ctl.abort();
    await fake.waitForAbort(2000);
    const events = await done;
    expect(errorOf(events)?.kind).toBe("aborted");
    expect(textOf(events)).toBe("");
    expect(fake.chats[0]!.aborted).toBe(true);
  });

  it("an abort mid-stream keeps what arrived and closes the connection", async () => {
    fake.setReplies([{ steps: [{ text: "partial" }, { hang: true }] }]);
    const ctl = new AbortController();
    const events = [];
    for await (const e of provider().stream(chatRequest({ signal: ctl.signal }))) {
      events.push(e);
      if (e.type === "text") ctl.abort();
    }
    expect(textOf(events)).toBe("partial");
    expect(errorOf(events)?.kind).toBe("aborted");
    await fake.waitForAbort(2000);
    expect(fake.aborted).toBe(1);
  });

  it("leaving the loop early closes the connection", async () => {
    fake.setReplies([{ steps: [{ text: "first" }, { hang: true }] }]);
    for await (const e of provider().stream(chatRequest())) if (e.type === "text") break;
    await fake.waitForAbort(2000);
    expect(fake.chats[0]!.aborted).toBe(true);
  });

  it("a stalled stream ends with a timeout error and keeps the text", async () => {
    fake.setReplies([{ steps: [{ text: "a" }, { hang: true }] }]);
    const events = await collect(provider().stream(chatRequest({ idleTimeoutMs: 200 })));
    expect(textOf(events)).toBe("a");
    expect(errorOf(events)).toMatchObject({
      kind: "timeout",
      message: "Ollama sent nothing for 0 s in the middle of the answer, so the request was stopped.",
    });
    await fake.waitForAbort(2000);
  });

  it("a model load that outlasts the load allowance ends with a timeout error", async () => {
    fake.setReplies([{ steps: [{ text: "late" }], loadDelayMs: 20_000 }]);
    const p = createOllamaProvider({ host: fake.url, loadAllowanceMs: 1000 });
    const events = await collect(p.stream(chatRequest({ idleTimeoutMs: 100 })));
    expect(errorOf(events)?.kind).toBe("timeout");
    expect(errorOf(events)?.message).toContain("did not start answering within 1 s");
  });
});

describe("ollama provider: loading ahead", () => {
  it("warm() loads the model with the session's num_ctx and keep_alive, without counting as a chat", async () => {
    await provider().warm!("qwen3:8b", 16384, "10m");
    const load = fake.requests.find((r) => r.path === "/api/chat");
    expect(load?.body).toMatchObject({
      model: "qwen3:8b",
      messages: [],
      options: { num_ctx: 16384 },
      keep_alive: "10m",
    });
    expect(fake.chats).toHaveLength(0);
  });
});

describe("ollama provider: errors", () => {
  it("a server that is not running is unreachable, naming the host and `ollama serve`", async () => {
    const port = await closedPort();
    const host = `http://127.0.0.1:${port}`;
    const events = await collect(createOllamaProvider({ host }).stream(chatRequest()));
    expect(errorOf(events)).toEqual({
      kind: "unreachable",
      message: `Cannot reach Ollama at ${host}`,
      hint: "Start it with `ollama serve` (or set --host / OLLAMA_HOST).",
    });
  });

  it("a server that drops the connection before answering is not called unreachable", async () => {
    fake.setReplies([{ steps: [{ destroy: true }] }]);
    const events = await collect(provider().stream(chatRequest()));
    expect(errorOf(events)).toEqual({
      kind: "stream",
      message: `Ollama at ${fake.url} closed the connection before answering`,
      hint: "It may have stopped while loading the model; check the `ollama serve` log and try again.",
    });
  });

  it("an unknown model says to pull it", async () => {
    const events = await collect(provider().stream(chatRequest({ model: "nope:1b" })));
    expect(errorOf(events)).toEqual({
      kind: "model-not-found",
      message: `Model 'nope:1b' is not installed on ${fake.url}`,
      hint: "Run `ollama pull nope:1b`",
      status: 404,
    });
  });

  it("tools sent to a model without the tools capability give no-tools", async () => {
    const events = await collect(provider().stream(chatRequest({ model: "gemma3:4b", tools: [readFileTool] })));
    expect(errorOf(events)).toMatchObject({
      kind: "no-tools",
      message: "registry.ollama.ai/library/gemma3:4b does not support tools",
      status: 400,
    });
  });

  it("an error line mid-stream keeps the text and carries the server's words", async () => {
    fake.setReplies([{ steps: [{ text: "Yes" }, { error: "an error was encountered while running the model" }] }]);
    const events = await collect(provider().stream(chatRequest()));
    expect(textOf(events)).toBe("Yes");
    expect(errorOf(events)).toEqual({ kind: "stream", message: "an error was encountered while running the model" });
  });

  it("a response closed right after its headers is a stream error", async () => {
    fake.setReplies([{ steps: [], closeAfterHeaders: true }]);
    const events = await collect(provider().stream(chatRequest()));
    expect(errorOf(events)).toEqual({ kind: "stream", message: "the connection closed before the answer finished" });
  });

  it("a reset mid-stream keeps the partial text", async () => {
    fake.setReplies([{ steps: [{ text: "partial answer" }, { destroy: true, delayMs: 30 }] }]);
    const events = await collect(provider().stream(chatRequest()));
    expect(textOf(events)).toBe("partial answer");
    expect(errorOf(events)).toEqual({ kind: "stream", message: "the connection closed before the answer finished" });
  });

  it("Ollama's overflow 400 (ollama/ollama#16712) says what to do", async () => {
    const msg =
      "the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length";
    fake.setReplies([{ steps: [], status: 400, body: { error: msg } }]);
    const error = errorOf(await collect(provider().stream(chatRequest())));
    expect(error).toMatchObject({ kind: "server", message: `Ollama answered 400: ${msg}`, status: 400 });
    expect(error?.hint).toMatch(/no longer fits the model's context window.*\/compact/);
  });

  it("HTTP 500 carries the body's error text", async () => {
    const msg =
      "model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details";
    fake.setReplies([{ steps: [], status: 500, body: { error: msg } }]);
    const events = await collect(provider().stream(chatRequest()));
    expect(errorOf(events)).toEqual({ kind: "server", message: `Ollama answered 500: ${msg}`, status: 500 });
  });

  it("a plain-text error body is read without console output", async () => {
    const log = vi.spyOn(console, "log");
    fake.setReplies([{ steps: [], status: 502, body: "bad gateway" }]);
    const events = await collect(provider().stream(chatRequest()));
    expect(errorOf(events)).toEqual({ kind: "server", message: "Ollama answered 502: bad gateway", status: 502 });
    expect(log).not.toHaveBeenCalled();
  });
});

describe("ollama provider: models", () => {
  it("modelInfo reads the context length and capabilities from /api/show", async () => {
    expect(await provider().modelInfo("qwen3:8b")).toEqual({
      name: "qwen3:8b",
      contextLength: 40960,
      capabilities: ["completion", "tools", "thinking"],
    });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", path: "/api/show", body: { model: "qwen3:8b" } });
  });

  it("modelInfo reads a Modelfile's PARAMETER num_ctx and the model's renderer and parser", async () => {
    expect(await provider().modelInfo("qwen3-coder:30b")).toEqual({
      name: "qwen3-coder:30b",
      contextLength: 262144,
      configuredWindow: 65536,
      renderer: "qwen3-coder",
      parser: "qwen3-coder",
      capabilities: ["completion", "tools"],
    });
  });

  it("modelInfo of an unknown model throws model-not-found", async () => {
    await expect(provider().modelInfo("nope")).rejects.toMatchObject({
      kind: "model-not-found",
      hint: "Run `ollama pull nope`",
    });
  });

  it("listModels lists the installed models with their details", async () => {
    expect(await provider().listModels()).toEqual([
      { name: "qwen3:8b", size: 2019393189, contextLength: 40960, capabilities: ["completion", "tools", "thinking"] },
      { name: "gemma3:4b", size: 2019393189, contextLength: 131072, capabilities: ["completion", "vision"] },
      {
        name: "qwen3-coder:30b",
        size: 2019393189,
        contextLength: 262144,
        configuredWindow: 65536,
        renderer: "qwen3-coder",
        parser: "qwen3-coder",
        capabilities: ["completion", "tools"],
      },
    ]);
  });

  it("listModels on a server that is down throws unreachable", async () => {
    const host = `http://127.0.0.1:${await closedPort()}`;
    await expect(createOllamaProvider({ host }).listModels()).rejects.toMatchObject({
      kind: "unreachable",
      message: `Cannot reach Ollama at ${host}`,
    });
  });
});
