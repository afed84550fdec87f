// An image an MCP tool returned, as each provider puts it on the wire — checked on what the fake
// servers recorded: Anthropic keeps it inside the tool_result; Ollama and OpenAI, whose tool
// messages carry only text, get it in a user message right after the step's results.
import { afterEach, describe, expect, it } from "vitest";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { createAnthropicProvider } from "../../src/providers/anthropic/provider.js";
import { createOllamaProvider } from "../../src/providers/ollama/provider.js";
import { createOpenAIProvider } from "../../src/providers/openai/provider.js";
import { startFakeAnthropic } from "../fakes/anthropic-server.js";
import { startFakeOllama } from "../fakes/ollama-server.js";
import { startFakeOpenAI } from "../fakes/openai-server.js";
import { chatRequest, collect } from "./helpers.js";

/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const JPEG = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJ";

const history: ConversationMessage[] = [
  { role: "system", content: "sys" },
  { role: "user", content: "show me" },
  {
    role: "assistant",
    content: "",
    toolCalls: [
      { id: "c1", name: "mcp__demo__shot", args: {} },
      { id: "c2", name: "read_file", args: { path: "a" } },
    ],
  },
  {
    role: "tool",
    content: "[image: image/png, 70 bytes]",
    toolCallId: "c1",
    toolName: "mcp__demo__shot",
    images: [
      { mimeType: "image/png", data: PNG },
      { mimeType: "image/jpeg", data: JPEG },
    ],
  },
  { role: "tool", content: "A", toolCallId: "c2", toolName: "read_file" },
  { role: "assistant", content: "A dot." },
];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("tool images on the wire", () => {
  it("Ollama: the tool message stays text; a user message after the step's results carries the base64", async () => {
    const fake = await startFakeOllama({ models: [{ name: "gemma3:4b", capabilities: ["completion", "vision"] }] });
    closers.push(() => fake.close());
    await collect(
      createOllamaProvider({ host: fake.url }).stream(chatRequest({ model: "gemma3:4b", messages: history })),
    );
    expect(fake.chats[0]!.messages.slice(3)).toEqual([
      { role: "tool", content: "[image: image/png, 70 bytes]", tool_name: "mcp__demo__shot", tool_call_id: "c1" },
      { role: "tool", content: "A", tool_name: "read_file", tool_call_id: "c2" },
      { role: "user", content: "The images returned by mcp__demo__shot, in order:", images: [PNG, JPEG] },
      { role: "assistant", content: "A dot." },
    ]);
  });

  it("Anthropic: image blocks inside the tool_result, beside its text", async () => {
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    await collect(
      createAnthropicProvider({ apiKey: "sk-ant-test", baseUrl: fake.url }).stream(
        chatRequest({ model: "claude-sonnet-4-6", messages: history }),
      ),
    );
    const body = fake.requests[0]!.body as { messages: { role: string; content: unknown }[] };
    expect(body.messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "c1",
          content: [
            { type: "text", text: "[image: image/png, 70 bytes]" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
            { type: "image", source: { type: "base64", media_type: "image/jpeg", data: JPEG } },
          ],
        },
        { type: "tool_result", tool_use_id: "c2", content: "A" },
      ],
    });
    expect(body.messages).toHaveLength(4);
  });

  it("OpenAI: the tool messages stay text; a user message of data-URL image parts follows them", async () => {
    const fake = await startFakeOpenAI();
    closers.push(() => fake.close());
    await collect(
      createOpenAIProvider({ apiKey: "sk-test", baseUrl: `${fake.url}/v1` }).stream(
        chatRequest({ model: "gpt-fake", messages: history }),
      ),
    );
    const body = fake.requests[0]!.body as { messages: unknown[] };
    expect(body.messages.slice(3)).toEqual([
      { role: "tool", tool_call_id: "c1", content: "[image: image/png, 70 bytes]" },
      { role: "tool", tool_call_id: "c2", content: "A" },
      {
        role: "user",
        content: [
          { type: "text", text: "The images returned by mcp__demo__shot, in order:" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: "image_url", image_url: { url: `data:image/jpeg;base64,${JPEG}` } },
        ],
      },
      { role: "assistant", content: "A dot." },
    ]);
  });

  it("a user message's own images go on that message", async () => {
    const fake = await startFakeOllama({ models: [{ name: "gemma3:4b", capabilities: ["completion", "vision"] }] });
    closers.push(() => fake.close());
    const messages: ConversationMessage[] = [
      { role: "user", content: "what is it?", images: [{ mimeType: "image/png", data: PNG }] },
    ];
    await collect(createOllamaProvider({ host: fake.url }).stream(chatRequest({ model: "gemma3:4b", messages })));
    expect(fake.chats[0]!.messages).toEqual([{ role: "user", content: "what is it?", images: [PNG] }]);
  });

  // Anthropic's vision guide (docs.anthropic.com/en/docs/build-with-claude/vision, "Base64-encoded
  // image example"): a content block {type: "image", source: {type: "base64", media_type, data}},
  // placed before the text ("Claude works best when images come before text").
  it("Anthropic: a user message's images are base64 image blocks before its text", async () => {
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    const messages: ConversationMessage[] = [
      { role: "user", content: "what is it?", images: [{ mimeType: "image/png", data: PNG }] },
    ];
    await collect(
      createAnthropicProvider({ apiKey: "sk-ant-test", baseUrl: fake.url }).stream(
        chatRequest({ model: "claude-sonnet-4-6", messages }),
      ),
    );
    const body = fake.requests[0]!.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          { type: "text", text: "what is it?" },
        ],
      },
    ]);
  });

  // OpenAI's images guide (platform.openai.com/docs/guides/images-vision, "Passing a Base64
  // encoded image", Chat Completions): {type: "image_url", image_url: {url: "data:<mime>;base64,…"}}
  // beside a {type: "text"} part.
  it("OpenAI: a user message's images are data-URL image_url parts beside its text", async () => {
    const fake = await startFakeOpenAI();
    closers.push(() => fake.close());
    const messages: ConversationMessage[] = [
      { role: "user", content: "what is it?", images: [{ mimeType: "image/jpeg", data: JPEG }] },
    ];
    await collect(
      createOpenAIProvider({ apiKey: "sk-test", baseUrl: `${fake.url}/v1` }).stream(
        chatRequest({ model: "gpt-fake", messages }),
      ),
    );
    const body = fake.requests[0]!.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "what is it?" },
          { type: "image_url", image_url: { url: `data:image/jpeg;base64,${JPEG}` } },
        ],
      },
    ]);
  });

  it("an OpenAI-compatible model is assumed to read images (the config's vision: false says otherwise)", async () => {
    const fake = await startFakeOpenAI();
    closers.push(() => fake.close());
    const info = await createOpenAIProvider({ apiKey: "sk-test", baseUrl: `${fake.url}/v1` }).modelInfo("gpt-fake");
    expect(info.capabilities).toContain("vision");
  });
});
