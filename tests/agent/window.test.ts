// Issue 43 §1: a window nobody reported is unknown, not 8,192; the user's newest message is never
// cut; a cut prompt is caught against everything sent. The loop against a scripted model.
import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { runAgent } from "../../src/agent/loop.js";
import { coreTools } from "../../src/tools/catalog.js";
import { scriptedProvider, type Reply } from "./scripted-provider.js";
import { tempProject, testConfig } from "../tools/ctx.js";

let cleanup = (): void => {};
afterEach(() => cleanup());

// The prompt of the issue's first report: 20,000 characters, cut to 400 against an assumed 8,192.
const PROMPT = `Review this:\n${"const value = compute(input);\n".repeat(690)}`.slice(0, 20_000);

async function run(
  replies: Reply[],
  opts: {
    configure?: (c: RunConfig) => void;
    info?: Parameters<typeof scriptedProvider>[1];
    conversation?: ConversationMessage[];
  } = {},
) {
  const project = tempProject({});
  cleanup = project.cleanup;
  const provider = scriptedProvider(replies, opts.info);
  const config: RunConfig = {
    ...testConfig(project.dir),
    systemPrompt: "You are agent0.",
    permissionMode: "yolo",
    numCtx: 0,
  };
  opts.configure?.(config);
  const events: RunEvent[] = [];
  const result = await runAgent(opts.conversation ?? [{ role: "user", content: PROMPT }], config, {
    provider,
    tools: coreTools,
    emit: (e) => events.push(e),
    signal: new AbortController().signal,
    askUser: async () => ({ decision: "deny" }),
  });
  const notices = events.flatMap((e) => (e.type === "notice" ? [e.text] : []));
  return { result, events, notices, provider };
}

const openai = (c: RunConfig) => {
  c.provider = "openai";
};

describe("a window nobody reported", () => {
  it("is unknown, not 8,192: the 20,000-character prompt is sent whole", async () => {
    const { result, events, provider } = await run([{ text: "Reviewed." }], {
      configure: openai,
      info: { contextLength: null },
    });
    expect(result.reason).toBe("complete");
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]!.messages.at(-1)!.content).toBe(PROMPT);
    expect(events.find((e) => e.type === "model-info")).toMatchObject({ windowUnknown: true });
    expect(events.some((e) => e.type === "compacted")).toBe(false);
  });

  it("is learned from a reply that read far less than was sent: warned once, then the window", async () => {
    const { notices, events } = await run([{ text: "Reviewed.", promptTokens: 2048 }], {
      configure: openai,
      info: { contextLength: null },
    });
    expect(notices.filter((n) => n.startsWith("The server cut the prompt to 2,048 tokens"))).toHaveLength(1);
    const usage = events.find((e) => e.type === "usage");
    expect(usage).toMatchObject({ contextWindow: 2048 });
    expect(usage && "windowUnknown" in usage).toBe(false);
  });

  it("is learned from an overflow refusal; a prompt that cannot fit it comes back whole with the figures", async () => {
    // vLLM's refusal (tests/providers/overflow.test.ts has its source).
    const refusal =
      "This model's maximum context length is 2048 tokens. However, you requested 0 output tokens and your prompt contains at least 7100 input tokens, for a total of at least 7100 tokens.";
    const { result, events, provider } = await run([{ error: refusal }], {
      configure: openai,
      info: { contextLength: null },
    });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]!.messages.at(-1)!.content).toBe(PROMPT);
    expect(result.reason).toBe("error");
    const blocked = events.find((e) => e.type === "prompt-blocked");
    expect(blocked).toMatchObject({ source: "window" });
    expect(blocked && blocked.type === "prompt-blocked" && blocked.reason).toMatch(
      /Your message is about [\d,]+ tokens; .* the model's 2,048-token context window/,
    );
  });

  it("a refusal without figures while unknown: compacted below what was sent, and the run completes", async () => {
    // Ollama's runner's words carry no figures (ollama/ollama llm/llama_server.go).
    const refusal =
      "the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length";
    const older: ConversationMessage[] = [
      { role: "user", content: `an old log:\n${"line of an old log\n".repeat(1200)}` },
      { role: "assistant", content: "Seen." },
      { role: "user", content: "and now?" },
    ];
    const { result, notices } = await run(
      [{ error: refusal }, { text: "Summary: an old log was read." }, { text: "Now this." }],
      { configure: openai, info: { contextLength: null }, conversation: older },
    );
    expect(result.reason).toBe("complete");
    expect(result.answer).toBe("Now this.");
    expect(notices.filter((n) => n.includes("refused the prompt as longer than its context window"))).toHaveLength(1);
  });
});

describe("a server whose tokenizer counts more than the estimate", () => {
  // Found running the embedded engine on a byte-level model: the refusal's figures (4× the estimate)
  // shrank the window the summary request named, so the engine loaded the model again at 1,536
  // tokens and refused the summary too. llama.cpp's refusal (tests/providers/overflow.test.ts).
  it("cuts for the refusal's figures, but every request still names the server's window", async () => {
    const older: ConversationMessage[] = [
      { role: "user", content: `an old log:\n${"line of an old log\n".repeat(600)}` },
      { role: "assistant", content: "Seen." },
      { role: "user", content: "and now?" },
    ];
    const refusal = "request (12000 tokens) exceeds the available context size (6000 tokens), try increasing it";
    const { result, provider } = await run(
      [{ error: refusal }, { text: "Summary: an old log was read." }, { text: "Now this." }],
      {
        configure: (c) => {
          c.provider = "openai";
          c.numCtx = 6000;
        },
        conversation: older,
      },
    );
    expect(result.reason).toBe("complete");
    // Under the window by the estimate (sent whole), refused, summarized, sent again.
    expect(provider.requests).toHaveLength(3);
    expect(provider.requests.map((r) => r.numCtx)).toEqual(provider.requests.map(() => 6000));
  });
});

describe("a window nobody reported, against the placeholder", () => {
  // UNKNOWN_CONTEXT (8,192) stands in for the window in figures, but a prompt is never judged against
  // it: 60,000 characters are far over 8,192 tokens, and still go whole (the server decides).
  const BIG = `Review this:\n${"const value = compute(input);\n".repeat(2100)}`;

  it("a prompt larger than the 8,192 placeholder is sent whole, not refused before sending", async () => {
    const { result, events, provider } = await run([{ text: "Reviewed." }], {
      configure: openai,
      info: { contextLength: null },
      conversation: [{ role: "user", content: BIG }],
    });
    expect(events.some((e) => e.type === "prompt-blocked")).toBe(false);
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]!.messages.at(-1)!.content).toBe(BIG);
    expect(result.reason).toBe("complete");
  });
});

describe("a window the server reported", () => {
  it("a prompt that cannot fit is refused before sending, with its size and the window", async () => {
    const { result, events, provider } = await run([], { configure: openai, info: { contextLength: 4096 } });
    expect(provider.requests).toHaveLength(0);
    expect(result.reason).toBe("error");
    expect(events.find((e) => e.type === "prompt-blocked")).toMatchObject({
      source: "window",
      reason: expect.stringMatching(/^Your message is about [\d,]+ tokens; .* 4,096-token context window\.$/),
    });
  });

  it("Ollama: a Modelfile's PARAMETER num_ctx is the window, not numCtxCap", async () => {
    const { provider } = await run([{ text: "ok" }], {
      info: { contextLength: 131072, configuredWindow: 65536 },
      conversation: [{ role: "user", content: "hi" }],
    });
    expect(provider.requests[0]!.numCtx).toBe(65536);
  });
});

describe("the truncation check", () => {
  // Issue 43: a server held 2,048 of ~7,000 tokens and no warning came, because only the messages
  // were counted. Here the messages alone are ~2,500 tokens, the tool schemas ~1,800 more.
  it("compares what the server read with everything sent, tool schemas included", async () => {
    const { notices } = await run([{ text: "ok", promptTokens: 2048 }], {
      configure: (c) => {
        c.provider = "openai";
        c.numCtx = 32768;
      },
      conversation: [{ role: "user", content: "x ".repeat(5000) }],
    });
    expect(notices.filter((n) => n.startsWith("The server cut the prompt to 2,048 tokens"))).toHaveLength(1);
  });
});
