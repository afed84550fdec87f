import { NOT_RUN } from "../../src/protocol/history.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOpenAIProvider } from "../../src/providers/openai/provider.js";
import { openaiError, rateLimited, startFakeOpenAI, unauthorized, type FakeOpenAI } from "../fakes/openai-server.js";
import { callsOf, chatRequest, collect, errorOf, readFileTool, textOf, thinkingOf } from "./helpers.js";

// Every case runs against the polite server and against the rude one (what other servers send; see the fake).
describe.each(["polite", "rude"] as const)("against a %s server", (manners) => {
  let fake: FakeOpenAI;
  beforeEach(async () => {
    fake = await startFakeOpenAI(manners === "rude" ? { rude: true } : {});
  });
  afterEach(() => fake.close());

  const provider = (apiKey = "sk-test") =>
    createOpenAIProvider({ apiKey, baseUrl: `${fake.url}/v1`, retry: { baseDelayMs: 10 } });
  const req = (over = {}) => chatRequest({ model: "gpt-fake", tools: [readFileTool], ...over });

  describe("openai-compatible provider", () => {
    it("completes a tool-calling turn with arguments split across deltas", async () => {
      fake.setReplies([
        {
          reasoning: "Need the file.",
          toolCalls: [
            { name: "read_file", arguments: { path: "src/a.ts" }, id: "call_1" },
            { name: "read_file", arguments: { path: "b.ts" } },
          ],
          usage: { prompt: 169, completion: 15 },
        },
      ]);
      const events = await collect(provider().stream(req()));
      expect(thinkingOf(events)).toBe("Need the file.");
      expect(callsOf(events)).toEqual([
        { id: "call_1", name: "read_file", args: { path: "src/a.ts" } },
        { id: "call_fake1", name: "read_file", args: { path: "b.ts" } },
      ]);
      expect(events.at(-1)).toEqual({ type: "done", promptTokens: 169, completionTokens: 15 });
    });

    // Issue 40: servers as rude as the real ones. A name sent whole on every delta, or in pieces.
    it.each([
      ["the whole name again on every delta (MiniMax via NIM, GPT-5)", { nameEveryDelta: true as const }],
      ["the name in pieces (Gemini)", { nameChunkChars: 3 }],
    ])("a tool name sent as %s is read once", async (_how, rude) => {
      fake.setReplies([{ toolCalls: [{ name: "read_file", arguments: { path: "src/a.ts" }, id: "call_1" }], ...rude }]);
      expect(callsOf(await collect(provider().stream(req())))).toEqual([
        { id: "call_1", name: "read_file", args: { path: "src/a.ts" } },
      ]);
    });

    it("content: null on every delta and reasoning_content (vLLM, llama.cpp, DeepSeek) read as OpenAI's own", async () => {
      fake.setReplies([
        {
          contentNull: true,
          reasoningContent: true,
          reasoning: "Look first.",
          toolCalls: [{ name: "read_file", arguments: { path: "a.ts" }, id: "call_1" }],
        },
      ]);
      const events = await collect(provider().stream(req()));
      expect(thinkingOf(events)).toBe("Look first.");
      expect(textOf(events)).toBe("");
      expect(callsOf(events)).toEqual([{ id: "call_1", name: "read_file", args: { path: "a.ts" } }]);
    });

    it("an error object in the middle of the stream ends it as an error, not as a short answer", async () => {
      fake.setReplies([{ text: "Partial ans", errorMidStream: "CUDA out of memory" }]);
      const events = await collect(provider().stream(req()));
      expect(textOf(events)).toBe("Partial ans");
      expect(errorOf(events)?.message).toContain("CUDA out of memory");
      expect(events.some((e) => e.type === "done")).toBe(false);
    });

    it("a server that never sends usage still ends the answer, with zero counts", async () => {
      fake.setReplies([{ text: "fine", noUsage: true }]);
      const events = await collect(provider().stream(req()));
      expect(textOf(events)).toBe("fine");
      expect(events.at(-1)).toEqual({ type: "done", promptTokens: 0, completionTokens: 0 });
    });

    it("sends the history with content never null and every tool call answered", async () => {
      await collect(
        provider().stream(
          req({
            temperature: 0.7,
            messages: [
              { role: "system", content: "sys" },
              { role: "user", content: "go" },
              {
                role: "assistant",
                content: "",
                toolCalls: [
                  { id: "c1", name: "read_file", args: { path: "a" } },
                  { id: "c2", name: "read_file", args: { path: "b" } },
                ],
              },
              { role: "tool", content: "A", toolCallId: "c1", toolName: "read_file" },
              { role: "user", content: "and?" },
            ],
          }),
        ),
      );
      const body = fake.requests[0]!.body as Record<string, unknown>;
      expect(body).toMatchObject({
        model: "gpt-fake",
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.7,
      });
      expect(body.tools).toEqual([
        {
          type: "function",
          function: { name: "read_file", description: "Read a file", parameters: readFileTool.parameters },
        },
      ]);
      expect(body.messages).toEqual([
        { role: "system", content: "sys" },
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } },
            { id: "c2", type: "function", function: { name: "read_file", arguments: '{"path":"b"}' } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "A" },
        { role: "tool", tool_call_id: "c2", content: NOT_RUN },
        { role: "user", content: "and?" },
      ]);
    });

    it("streams text", async () => {
      fake.setReplies([{ text: "Hello there, world." }]);
      const events = await collect(provider().stream(req({ tools: [] })));
      expect(textOf(events)).toBe("Hello there, world.");
      expect((fake.requests[0]!.body as Record<string, unknown>).tools).toBeUndefined();
    });

    it("retries a 429 with a notice, then succeeds", async () => {
      fake.setReplies([rateLimited(), rateLimited(), { text: "fine" }]);
      const events = await collect(provider().stream(req()));
      expect(events.filter((e) => e.type === "notice")).toEqual([
        { type: "notice", text: "rate limited; retrying in 10ms (attempt 1/4)" },
        { type: "notice", text: "rate limited; retrying in 20ms (attempt 2/4)" },
      ]);
      expect(textOf(events)).toBe("fine");
      expect(fake.requests).toHaveLength(3);
    });

    it("waits as long as retry-after says", async () => {
      fake.setReplies([openaiError(503, "busy", "api_error", { "retry-after-ms": "30" }), { text: "ok" }]);
      const events = await collect(provider().stream(req()));
      expect(events[0]).toEqual({ type: "notice", text: "server error 503; retrying in 30ms (attempt 1/4)" });
    });

    it("a 401 is a clear auth error naming OPENAI_API_KEY", async () => {
      fake.setReplies([unauthorized()]);
      const events = await collect(provider("sk-bad").stream(req()));
      expect(errorOf(events)).toEqual({
        kind: "auth",
        message: `The server at ${fake.url}/v1 rejected the API key in OPENAI_API_KEY: Incorrect API key provided: sk-bad.`,
        hint: "Set OPENAI_API_KEY to a key the server accepts.",
        status: 401,
      });
      expect(fake.requests).toHaveLength(1);
    });

    it("no key for api.openai.com is an auth error; a local server needs none", async () => {
      expect(errorOf(await collect(createOpenAIProvider({}).stream(req())))).toMatchObject({
        kind: "auth",
        message: "OPENAI_API_KEY is not set",
      });
      const events = await collect(createOpenAIProvider({ baseUrl: `${fake.url}/v1` }).stream(req()));
      expect(textOf(events)).toBe("ok");
    });

    it("a stream that ends without a finish is an error", async () => {
      fake.setReplies([{ text: "half", cutShort: true }]);
      const events = await collect(provider().stream(req()));
      expect(textOf(events)).toBe("half");
      expect(errorOf(events)).toEqual({ kind: "stream", message: "the connection closed before the answer finished" });
    });
  });

  describe("openai-compatible provider: interrupts", () => {
    it("an abort before the headers ends the stream as aborted", async () => {
      fake.setReplies([{ text: "late", delayMs: 20_000 }]);
      const ctl = new AbortController();
      const done = collect(provider().stream(req({ signal: ctl.signal })));
      while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
      ctl.abort();
      const events = await done;
      expect(events).toEqual([{ type: "error", error: { kind: "aborted", message: "The request was stopped." } }]);
    });

    it("silence longer than the idle timeout is a timeout error", async () => {
      fake.setReplies([{ text: "late", delayMs: 20_000 }]);
      const events = await collect(provider().stream(req({ idleTimeoutMs: 100 })));
      expect(events).toEqual([
        {
          type: "error",
          error: {
            kind: "timeout",
            message: "The server sent nothing for 0 s, so the request was stopped.",
            hint: "Try again.",
          },
        },
      ]);
    });
  });
});
