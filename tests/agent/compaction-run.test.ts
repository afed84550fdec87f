// Compaction as the loop runs it (issue 25 §2): it starts at 80 % of the window, brings the prompt
// to at most half, asks for the summary by extending the prompt the server already holds (one
// cache break per compaction: the compacted prompt), never runs twice without new content, and
// cuts a huge tool output when nothing else would fit.
import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { runAgent } from "../../src/agent/loop.js";
import { compactIfNeeded, toolSpecTokens } from "../../src/agent/compaction/run.js";
import { estimateTokens } from "../../src/protocol/tokens.js";
import { coreTools, toolsFor } from "../../src/tools/catalog.js";
import { toolSpecs } from "../../src/tools/runner.js";
import { scriptedProvider } from "./scripted-provider.js";
import { buildSystemPrompt } from "../../src/context/prompt.js";
import type { ChatRequest, Provider } from "../../src/providers/types.js";
import { tempProject, testConfig } from "../tools/ctx.js";

let cleanup = (): void => {};
afterEach(() => cleanup());

const WINDOW = 4096;
const long = (n: number) => `${"word ".repeat(n)}`.trim();

function history(turns: number, chars: number): ConversationMessage[] {
  return Array.from({ length: turns }, (_, i) => [
    { role: "user" as const, content: `question ${i}` },
    { role: "assistant" as const, content: `${i}: ${long(chars / 5)}` },
  ]).flat();
}

describe("compaction in the loop", () => {
  it("asks for the summary by extending the prompt as sent, and compacts to at most half the window", async () => {
    const project = tempProject({});
    cleanup = project.cleanup;
    const provider = scriptedProvider([{ text: "They asked ten questions." }, { text: "answer" }]);
    const config = { ...testConfig(project.dir), systemPrompt: "You are agent0.", numCtx: WINDOW };
    const events: RunEvent[] = [];
    const conversation = [...history(10, 1300), { role: "user" as const, content: "next" }];
    await runAgent(conversation, config, {
      provider,
      tools: [],
      emit: (e) => events.push(e),
      signal: new AbortController().signal,
      askUser: async () => ({ decision: "deny" }),
    });
    const [summary, next] = provider.requests;
    // The summary request is the request the loop would have sent, plus one instruction.
    expect(summary!.messages[0]).toEqual({ role: "system", content: "You are agent0." });
    expect(summary!.messages.slice(1, -1)).toEqual(conversation);
    expect(summary!.messages.at(-1)!.content).toContain("Write a summary of the conversation so far");
    expect(summary!.numCtx).toBe(WINDOW);
    // The compacted request holds the summary and fits half the window.
    expect(next!.messages[1]!.content).toContain("They asked ten questions.");
    expect(estimateTokens(next!.messages)).toBeLessThanOrEqual(WINDOW / 2);
    const done = events.find((e) => e.type === "compacted");
    expect(done && done.type === "compacted" && done.after).toBeLessThanOrEqual(WINDOW / 2);
    const notice = events.find((e) => e.type === "notice" && e.text.startsWith("compacted:"));
    expect(notice && notice.type === "notice" && notice.text).toMatch(/compacted: \d+ → \d+ tokens/);
  });

  // Issue 43: a 20,000-character prompt was cut to 400 characters to fit an assumed window. The
  // user's newest message is never cut: it is refused before anything is sent, with its figures.
  it("refuses a huge pasted message that cannot fit, whole and before sending, with its size and the window", async () => {
    const project = tempProject({});
    cleanup = project.cleanup;
    const provider = scriptedProvider([{ text: "done" }]);
    const config = { ...testConfig(project.dir), systemPrompt: "You are agent0.", numCtx: WINDOW };
    const events: RunEvent[] = [];
    const pasted = `look at this log:\n${"line\n".repeat(6000)}`;
    const result = await runAgent([{ role: "user", content: pasted }], config, {
      provider,
      tools: [],
      emit: (e) => events.push(e),
      signal: new AbortController().signal,
      askUser: async () => ({ decision: "deny" }),
    });
    expect(provider.requests).toHaveLength(0);
    expect(result.reason).toBe("error");
    const blocked = events.find((e) => e.type === "prompt-blocked");
    expect(blocked).toMatchObject({ source: "window" });
    expect(blocked && blocked.type === "prompt-blocked" && blocked.reason).toMatch(
      /^Your message is about 7,\d{3} tokens; .* more than the model's 4,096-token context window\.$/,
    );
    expect(events.some((e) => e.type === "notice" && e.text.includes("cut to fit"))).toBe(false);
  });

  it("summarizes older messages to fit, never the user's newest", async () => {
    const project = tempProject({});
    cleanup = project.cleanup;
    const provider = scriptedProvider([{ text: "Summary: the user pasted an old log." }, { text: "done" }]);
    const config = { ...testConfig(project.dir), systemPrompt: "You are agent0.", numCtx: WINDOW };
    const newest = `and this one:\n${"word ".repeat(1500)}`;
    await runAgent(
      [
        { role: "user", content: `an old paste:\n${"line\n".repeat(3000)}` },
        { role: "assistant", content: "Seen." },
        { role: "user", content: newest },
      ],
      config,
      {
        provider,
        tools: [],
        emit: () => {},
        signal: new AbortController().signal,
        askUser: async () => ({ decision: "deny" }),
      },
    );
    const sent = provider.requests.at(-1)!.messages;
    expect(sent.at(-1)!.content).toBe(newest);
    expect(sent.some((m) => m.content.includes("the user pasted an old log"))).toBe(true);
    expect(sent.some((m) => m.content.includes("an old paste:"))).toBe(false);
  });

  it("summarizes a huge tool output in a request of its own that fits the window", async () => {
    const project = tempProject({});
    cleanup = project.cleanup;
    const provider = scriptedProvider([{ text: "big.txt holds 6000 lines of 'line'." }, { text: "done" }]);
    const config = { ...testConfig(project.dir), systemPrompt: "You are agent0.", numCtx: WINDOW };
    const conversation: ConversationMessage[] = [
      { role: "user", content: "read it" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read_file", args: { path: "big.txt" } }] },
      { role: "tool", content: "line\n".repeat(6000), toolCallId: "c1", toolName: "read_file" },
    ];
    await runAgent(conversation, config, {
      provider,
      tools: [],
      emit: () => {},
      signal: new AbortController().signal,
      askUser: async () => ({ decision: "deny" }),
    });
    const [summary, next] = provider.requests;
    expect(estimateTokens(summary!.messages)).toBeLessThanOrEqual(WINDOW * 0.8);
    expect(estimateTokens(next!.messages)).toBeLessThanOrEqual(WINDOW / 2);
    expect(next!.messages.map((m) => m.content)).toContain("read it");
  });

  it("does not compact again when nothing was added since the last compaction", async () => {
    const project = tempProject({});
    cleanup = project.cleanup;
    // The summary comes back far too long: the compacted prompt is still over the threshold.
    const provider = scriptedProvider([{ text: long(3600) }, { text: "answer" }]);
    const config = { ...testConfig(project.dir), systemPrompt: "You are agent0.", numCtx: WINDOW };
    const events: RunEvent[] = [];
    await runAgent([...history(10, 1300), { role: "user", content: "next" }], config, {
      provider,
      tools: [],
      emit: (e) => events.push(e),
      signal: new AbortController().signal,
      askUser: async () => ({ decision: "deny" }),
    });
    expect(events.filter((e) => e.type === "compacted")).toHaveLength(1);
    expect(provider.requests).toHaveLength(2);
  });

  it("/compact counts the tool schemas as the loop does, so its figures match the status line's", async () => {
    const project = tempProject({});
    cleanup = project.cleanup;
    const provider = scriptedProvider([{ text: "summary" }]);
    const config = { ...testConfig(project.dir), systemPrompt: "You are agent0.", numCtx: 32768 };
    const specs = toolSpecs(coreTools);
    const events: RunEvent[] = [];
    const conversation = history(3, 400);
    await compactIfNeeded(provider, conversation, config, new AbortController().signal, (e) => events.push(e), {
      trigger: "manual",
      force: true,
      overhead: { system: { role: "system", content: "You are agent0." }, tools: specs },
    });
    const done = events.find((e) => e.type === "compacted");
    expect(done?.type === "compacted" && done.before).toBe(
      estimateTokens([{ role: "system", content: "You are agent0." }, ...conversation]) + toolSpecTokens(specs),
    );
  });
});

/** A model that answers a summary request with a short summary and any other with the next answer. */
function summarizingModel(answers: string[]): Provider & { requests: ChatRequest[] } {
  const base = scriptedProvider([], { contextLength: WINDOW });
  const requests: ChatRequest[] = [];
  return {
    ...base,
    requests,
    async *stream(req) {
      requests.push(req);
      const summary = req.messages.some(
        (m) => m.content.includes("Write a summary") || m.content.startsWith("Summarize"),
      );
      yield {
        type: "text",
        delta: summary ? "Summary: the user asked about parts; each was explained." : answers.shift()!,
      };
      yield { type: "done", promptTokens: 10, completionTokens: 5 };
    },
  };
}

describe("a 4k window over six long answers", () => {
  it("compacts at most twice, each time bringing the next request under 60 % of the window", async () => {
    const project = tempProject({});
    cleanup = project.cleanup;
    const prompt = buildSystemPrompt({ cwd: project.dir, date: "2026-11-26", platform: "linux", files: [] });
    const model = summarizingModel(Array.from({ length: 6 }, (_, i) => `Answer ${i}: ${long(480)}`));
    const config = {
      ...testConfig(project.dir),
      numCtx: 0,
      systemPrompt: prompt.text,
      systemPromptLean: prompt.lean.text,
    };
    let conversation: ConversationMessage[] = [];
    const events: RunEvent[] = [];
    for (let turn = 0; turn < 6; turn++) {
      conversation = [...conversation, { role: "user", content: `Tell me about part ${turn}.` }];
      const result = await runAgent(conversation, config, {
        provider: model,
        tools: toolsFor(config, undefined, []),
        emit: (e) => events.push(e),
        signal: new AbortController().signal,
        askUser: async () => ({ decision: "deny" }),
      });
      conversation = result.conversation;
    }
    const compactions = events.filter((e) => e.type === "compacted");
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    expect(compactions.length).toBeLessThanOrEqual(2);
    // The request after each compaction, as sent (system prompt and tool schemas included).
    const isSummary = (r: ChatRequest | undefined) =>
      !!r?.messages.some((m) => m.content.includes("Write a summary") || m.content.startsWith("Summarize"));
    const after = model.requests.filter((_, i) => isSummary(model.requests[i - 1]));
    expect(after).toHaveLength(compactions.length);
    for (const req of after)
      expect(estimateTokens(req.messages) + toolSpecTokens(req.tools)).toBeLessThan(WINDOW * 0.6);
  });
});
