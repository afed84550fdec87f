// Images an MCP tool returns reach the model only when it reads images: the server's `vision`
// capability (or the config's `vision`) decides, the history keeps them only then, and a model
// that cannot read them (after /model, say) is never sent one.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgent } from "../../src/agent/loop.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import { defineTool, type ToolDef } from "../../src/tools/types.js";
import { scriptedProvider } from "./scripted-provider.js";
import { testConfig } from "../tools/ctx.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const screenshot = defineTool({
  name: "screenshot",
  description: "Take a screenshot.",
  schema: z.object({}),
  readOnly: true,
  concurrentSafe: true,
  label: () => "screenshot",
  run: async () => ({ content: "[image: image/png, 70 bytes]", images: [{ mimeType: "image/png", data: PNG }] }),
}) as ToolDef;

async function run(
  capabilities: string[],
  configure: (c: RunConfig) => void = () => {},
  initial?: ConversationMessage[],
) {
  const provider = scriptedProvider([{ calls: [{ id: "c1", name: "screenshot", args: {} }] }, { text: "A dot." }], {
    capabilities,
  });
  // num_ctx unknown: the run asks the server about the model first, as a session's first run does.
  const config: RunConfig = { ...testConfig(process.cwd()), numCtx: 0, permissionMode: "yolo" };
  configure(config);
  const result = await runAgent(initial ?? [{ role: "user", content: "look" }], config, {
    provider,
    tools: [screenshot],
    emit: () => {},
    signal: new AbortController().signal,
    askUser: async () => ({ decision: "deny" }),
  });
  const sent = provider.requests[1]!.messages;
  return { result, sent, toolMessage: sent.find((m) => m.role === "tool")! };
}

describe("tool images and the model's vision", () => {
  it("a model with the vision capability gets the image, and the history keeps it", async () => {
    const { result, toolMessage } = await run(["completion", "tools", "vision"]);
    expect(toolMessage.images).toEqual([{ mimeType: "image/png", data: PNG }]);
    expect(toolMessage.content).toBe("[image: image/png, 70 bytes]");
    expect(result.appended.find((m) => m.role === "tool")!.images).toHaveLength(1);
  });

  it("a model without it reads the description only, and nothing is stored", async () => {
    const { result, sent } = await run(["completion", "tools"]);
    expect(sent.some((m) => m.images)).toBe(false);
    expect(result.appended.some((m) => m.images)).toBe(false);
  });

  it("the config's vision overrides what the server says, either way", async () => {
    expect(
      (await run(["completion", "tools", "vision"], (c) => (c.vision = false))).toolMessage.images,
    ).toBeUndefined();
    expect((await run(["completion", "tools"], (c) => (c.vision = true))).toolMessage.images).toHaveLength(1);
  });

  it("images already in the history are not sent to a model that cannot read them", async () => {
    const earlier: ConversationMessage[] = [
      { role: "user", content: "look" },
      { role: "assistant", content: "", toolCalls: [{ id: "c0", name: "screenshot", args: {} }] },
      {
        role: "tool",
        content: "[image]",
        toolCallId: "c0",
        toolName: "screenshot",
        images: [{ mimeType: "image/png", data: PNG }],
      },
      { role: "user", content: "again" },
    ];
    const { sent } = await run(["completion", "tools"], () => {}, earlier);
    expect(sent.some((m) => m.images)).toBe(false);
    expect(sent.find((m) => m.toolCallId === "c0")!.content).toBe("[image]");
  });

  it("the JSON reply protocol shows a result's images on the user message that carries the result", async () => {
    const provider = scriptedProvider([
      { text: '{"thoughts":[],"tool_name":"response","tool_args":{"text":"A dot."}}' },
    ]);
    const config: RunConfig = { ...testConfig(process.cwd()), toolProtocol: "json", seesImages: true };
    await runAgent(
      [
        { role: "user", content: "look" },
        { role: "assistant", content: "", toolCalls: [{ id: "c0", name: "screenshot", args: {} }] },
        {
          role: "tool",
          content: "[image]",
          toolCallId: "c0",
          toolName: "screenshot",
          images: [{ mimeType: "image/png", data: PNG }],
        },
      ],
      config,
      {
        provider,
        tools: [screenshot],
        emit: () => {},
        signal: new AbortController().signal,
        askUser: async () => ({ decision: "deny" }),
      },
    );
    const result = provider.requests[0]!.messages.find((m) => m.content.startsWith("Result of screenshot"))!;
    expect(result).toMatchObject({ role: "user", images: [{ mimeType: "image/png", data: PNG }] });
  });
});

// The user's own `@picture.png` (a `-p` run, or a TUI whose model was not known when it sent):
// never a silent drop. Claude Code sends images only to models that read them; here a model that
// does not stops the run before any request, saying why.
describe("the user's images and the model's vision", () => {
  const turn: ConversationMessage[] = [
    { role: "user", content: "what is this?", images: [{ mimeType: "image/png", data: PNG }] },
  ];
  async function send(capabilities: string[], numCtx: number) {
    const provider = scriptedProvider([{ text: "A dot." }], { capabilities });
    const events: { type: string; message?: string }[] = [];
    const result = await runAgent(
      turn,
      { ...testConfig(process.cwd()), numCtx },
      {
        provider,
        tools: [],
        emit: (e) => events.push(e as { type: string }),
        signal: new AbortController().signal,
        askUser: async () => ({ decision: "deny" }),
      },
    );
    return { result, requests: provider.requests, error: events.find((e) => e.type === "error")?.message };
  }

  it("a model that sees gets them", async () => {
    const { result, requests } = await send(["completion", "tools", "vision"], 0);
    expect(result.reason).toBe("complete");
    expect(requests[0]!.messages.at(-1)!.images).toHaveLength(1);
  });

  it("a model that does not: no request, and an error that names /model", async () => {
    const { result, requests, error } = await send(["completion", "tools"], 0);
    expect(result.reason).toBe("error");
    expect(requests).toHaveLength(0);
    expect(error).toContain("cannot see images");
    expect(error).toContain("Nothing was sent");
  });

  it("asks the server when the config's num_ctx skipped the lookup", async () => {
    expect((await send(["completion", "tools", "vision"], 8192)).requests[0]!.messages.at(-1)!.images).toHaveLength(1);
    expect((await send(["completion"], 8192)).requests).toHaveLength(0);
  });
});
