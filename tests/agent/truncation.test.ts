// A server that cut the prompt (issue 25 §4): said once a session, with the fix, and from then on
// the session works in what the server really holds. The count is the only sign: LM Studio at 4k,
// llama.cpp with a small -c and Ollama's /v1 (which ignores num_ctx) answer 200 and a normal finish.
import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { runAgent } from "../../src/agent/loop.js";
import { roundWindow } from "../../src/agent/model-call.js";
import { createSessionMemory } from "../../src/tools/session-memory.js";
import { estimateTokens } from "../../src/protocol/tokens.js";
import { scriptedProvider } from "./scripted-provider.js";
import { tempProject, testConfig } from "../tools/ctx.js";

let cleanup = (): void => {};
afterEach(() => cleanup());

describe("a prompt the server cut", () => {
  it("is told once, and the next run compacts to the 2,048 tokens the server holds", async () => {
    const project = tempProject({});
    cleanup = project.cleanup;
    // About 8,000 tokens of history; an OpenAI-compatible server says it read 2,048.
    const history: ConversationMessage[] = Array.from({ length: 16 }, (_, i) => [
      { role: "user" as const, content: `question ${i}` },
      { role: "assistant" as const, content: `answer ${i}: ${"x".repeat(1900)}` },
    ]).flat();
    const provider = scriptedProvider([
      { text: "first", promptTokens: 2048 },
      { text: "Summary: sixteen questions." },
      { text: "second", promptTokens: 1500 },
    ]);
    const config = { ...testConfig(project.dir), provider: "openai" as const, numCtx: 32768 };
    const memory = createSessionMemory("s");
    const events: RunEvent[] = [];
    const run = (conversation: ConversationMessage[]) =>
      runAgent(conversation, config, {
        provider,
        tools: [],
        memory,
        emit: (e) => events.push(e),
        signal: new AbortController().signal,
        askUser: async () => ({ decision: "deny" }),
      });
    const first = await run([...history, { role: "user", content: "go on" }]);
    const usage = events.find((e) => e.type === "usage");
    expect(usage?.type === "usage" && usage.contextWindow).toBe(2048);
    // The next run (the UI keeps the window the usage event reported) compacts first.
    config.numCtx = 2048;
    await run([...first.conversation, { role: "user", content: "and now?" }]);
    const told = events.filter((e) => e.type === "notice" && e.text.startsWith("The server cut the prompt"));
    expect(told).toHaveLength(1);
    expect(told[0]!.type === "notice" && told[0]!.text).toContain("to 2,048 tokens");
    expect(told[0]!.type === "notice" && told[0]!.text).toContain("Start it with a larger context");
    const last = provider.requests.at(-1)!;
    expect(estimateTokens(last.messages)).toBeLessThanOrEqual(2048 * 0.8);
  });

  it("reads a count just under a round window as that window", () => {
    expect(roundWindow(4090)).toBe(4096);
    expect(roundWindow(2048)).toBe(2048);
    expect(roundWindow(3000)).toBe(3000);
  });
});
