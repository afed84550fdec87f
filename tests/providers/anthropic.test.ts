import { NOT_RUN } from "../../src/protocol/history.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAnthropicProvider } from "../../src/providers/anthropic/provider.js";
import {
  overloaded,
  rateLimited,
  startFakeAnthropic,
  unauthorized,
  type FakeAnthropic,
} from "../fakes/anthropic-server.js";
import { callsOf, chatRequest, collect, errorOf, readFileTool, textOf, thinkingOf } from "./helpers.js";
import { toAnthropic } from "../../src/providers/anthropic/messages.js";

// Every case runs against the polite server and against the rude one (what other servers send; see the fake).
describe.each(["polite", "rude"] as const)("against a %s server", (manners) => {
  let fake: FakeAnthropic;
  beforeEach(async () => {
    fake = await startFakeAnthropic(manners === "rude" ? { rude: true } : {});
  });
  afterEach(() => fake.close());

  const provider = (apiKey = "sk-ant-test") =>
    createAnthropicProvider({ apiKey, baseUrl: fake.url, retry: { baseDelayMs: 10 } });
  const req = (over = {}) => chatRequest({ model: "claude-sonnet-4-6", tools: [readFileTool], ...over });

  describe("anthropic provider", () => {
    it("completes a tool-calling turn: text, a tool_use reassembled from input_json_delta, usage", async () => {
      fake.setReplies([
        {
          blocks: [
            { text: "I'll read it." },
            { toolUse: { name: "read_file", input: { path: "src/some/long/path.ts" }, id: "toolu_01" } },
          ],
          inputTokens: 377,
          outputTokens: 65,
        },
      ]);
      const events = await collect(provider().stream(req()));
      expect(textOf(events)).toBe("I'll read it.");
      expect(callsOf(events)).toEqual([{ id: "toolu_01", name: "read_file", args: { path: "src/some/long/path.ts" } }]);
      expect(events.at(-1)).toEqual({ type: "done", promptTokens: 377, completionTokens: 65 });
    });

    it("pings and unknown event types anywhere change nothing (the streaming docs say both may come)", async () => {
      fake.setReplies([
        {
          rude: true,
          blocks: [
            { thinking: "Plan." },
            { text: "I'll read it." },
            { toolUse: { name: "read_file", input: { path: "src/a.ts" }, id: "toolu_02" } },
          ],
          inputTokens: 40,
          outputTokens: 9,
        },
      ]);
      const events = await collect(provider().stream(req({ think: "on" })));
      expect(thinkingOf(events)).toBe("Plan.");
      expect(textOf(events)).toBe("I'll read it.");
      expect(callsOf(events)).toEqual([{ id: "toolu_02", name: "read_file", args: { path: "src/a.ts" } }]);
      expect(events.at(-1)).toEqual({ type: "done", promptTokens: 40, completionTokens: 9 });
      expect(errorOf(events)).toBeUndefined();
    });

    it("sends the system prompt as `system`, tools with input_schema, and tool results as user tool_result blocks", async () => {
      await collect(
        provider().stream(
          req({
            messages: [
              { role: "system", content: "be brief" },
              { role: "user", content: "read a.ts" },
              {
                role: "assistant",
                content: "",
                toolCalls: [
                  { id: "toolu_01", name: "read_file", args: { path: "a.ts" } },
                  { id: "toolu_02", name: "read_file", args: { path: "b.ts" } },
                ],
              },
              { role: "tool", content: "export {}", toolCallId: "toolu_01", toolName: "read_file" },
            ],
          }),
        ),
      );
      const body = fake.requests[0]!.body as Record<string, unknown>;
      expect(body.system).toBe("be brief");
      expect(body.stream).toBe(true);
      expect(body.tools).toEqual([
        { name: "read_file", description: "Read a file", input_schema: readFileTool.parameters },
      ]);
      expect(body.messages).toEqual([
        { role: "user", content: "read a.ts" },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "a.ts" } },
            { type: "tool_use", id: "toolu_02", name: "read_file", input: { path: "b.ts" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_01", content: "export {}" },
            { type: "tool_result", tool_use_id: "toolu_02", content: NOT_RUN },
          ],
        },
      ]);
    });

    it("streams thinking blocks when thinking is on", async () => {
      fake.setReplies([{ blocks: [{ thinking: "Let me think." }, { text: "42" }] }]);
      const events = await collect(provider().stream(req({ think: "on", model: "claude-sonnet-4-6" })));
      expect(thinkingOf(events)).toBe("Let me think.");
      expect(textOf(events)).toBe("42");
      expect((fake.requests[0]!.body as { thinking?: unknown }).thinking).toEqual({
        type: "enabled",
        budget_tokens: 8192,
      });
    });

    it("keeps a thinking block's signature and sends the block back with it before the tool call", async () => {
      fake.setReplies([
        {
          blocks: [
            { thinking: "Read it first." },
            { toolUse: { name: "read_file", input: { path: "a" }, id: "toolu_1" } },
          ],
        },
      ]);
      const events = await collect(provider().stream(req({ think: "on", model: "claude-sonnet-4-6" })));
      const signature = events.flatMap((e) => (e.type === "thinking-signature" ? [e.signature] : [])).join("");
      expect(signature).toBe("c2lnbmF0dXJl");
      const wire = toAnthropic([
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: "",
          thinking: "Read it first.",
          thinkingSignature: signature,
          toolCalls: [{ id: "toolu_1", name: "read_file", args: { path: "a" } }],
        },
        { role: "tool", content: "alpha", toolCallId: "toolu_1", toolName: "read_file" },
      ]);
      expect(wire.messages[1]).toEqual({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Read it first.", signature: "c2lnbmF0dXJl" },
          { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a" } },
        ],
      });
    });

    it("retries a 429 with a notice, then succeeds", async () => {
      fake.setReplies([rateLimited(), { blocks: [{ text: "fine" }] }]);
      const events = await collect(provider().stream(req()));
      expect(events[0]).toEqual({ type: "notice", text: "rate limited; retrying in 10ms (attempt 1/4)" });
      expect(textOf(events)).toBe("fine");
      expect(events.at(-1)?.type).toBe("done");
      expect(fake.requests).toHaveLength(2);
    });

    it("retries 529 and a mid-stream overloaded_error event, doubling the wait", async () => {
      fake.setReplies([
        overloaded(),
        { blocks: [{ text: "" }], errorEvent: { type: "overloaded_error", message: "Overloaded" } },
        { blocks: [{ text: "done" }] },
      ]);
      const events = await collect(provider().stream(req()));
      expect(events.filter((e) => e.type === "notice")).toEqual([
        { type: "notice", text: "server overloaded; retrying in 10ms (attempt 1/4)" },
        { type: "notice", text: "server overloaded; retrying in 20ms (attempt 2/4)" },
      ]);
      expect(textOf(events)).toBe("done");
    });

    it("gives up after the last retry with the rate-limit error", async () => {
      fake.setReplies([rateLimited(), rateLimited(), rateLimited()]);
      const p = createAnthropicProvider({ apiKey: "k", baseUrl: fake.url, retry: { baseDelayMs: 1, retries: 2 } });
      const events = await collect(p.stream(req()));
      expect(errorOf(events)).toMatchObject({ kind: "rate-limit", status: 429 });
      expect(fake.requests).toHaveLength(3);
    });

    it("a 401 is a clear auth error naming ANTHROPIC_API_KEY, not retried", async () => {
      fake.setReplies([unauthorized()]);
      const events = await collect(provider().stream(req()));
      expect(errorOf(events)).toEqual({
        kind: "auth",
        message: "Anthropic rejected the API key in ANTHROPIC_API_KEY: invalid x-api-key",
        hint: "Set ANTHROPIC_API_KEY to a valid key from console.anthropic.com.",
        status: 401,
      });
      expect(fake.requests).toHaveLength(1);
    });

    it("a missing key is an auth error before any request", async () => {
      const events = await collect(createAnthropicProvider({ baseUrl: fake.url }).stream(req()));
      expect(errorOf(events)).toMatchObject({ kind: "auth", message: "ANTHROPIC_API_KEY is not set" });
      expect(fake.requests).toHaveLength(0);
    });
  });

  describe("anthropic provider: the SDK's console warnings", () => {
    it("become notices instead of reaching the terminal", async () => {
      const warn = vi.spyOn(console, "warn");
      const events = await collect(provider().stream(req({ model: "claude-sonnet-4-5" })));
      expect(warn).not.toHaveBeenCalled();
      expect(events[0]).toMatchObject({ type: "notice" });
      expect(events[0]?.type === "notice" && events[0].text).toContain("The model 'claude-sonnet-4-5' is deprecated");
      warn.mockRestore();
    });
  });
});
