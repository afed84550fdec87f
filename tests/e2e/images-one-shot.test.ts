// Images in -p, for each API (the TUI's: images.test.ts, images-large-and-pasted.test.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/anthropic-server.js";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/openai-server.js";
import { png, PNG, sizeOf, VISION } from "./images-setup.js";
import { type Sandbox, eachTest, runHeadless } from "./harness.js";

// `agent0 -p "what is in @pic.png"`: the image goes as each API takes it, or, to a model that
// cannot see, nothing goes and the run fails with why (Claude Code's -p takes @ mentions too).
describe("images in -p", () => {
  let sb: Sandbox;
  let ollama: FakeOllama | undefined;
  let anthropic: FakeAnthropic | undefined;
  let openai: FakeOpenAI | undefined;
  eachTest(
    (s) => (sb = s),
    () => [ollama, anthropic, openai],
  );

  it("Ollama: the image goes in `images`", async () => {
    fs.writeFileSync(path.join(sb.project, "pic.png"), PNG);
    ollama = await startFakeOllama({ models: [VISION], replies: [{ steps: [{ text: "A pixel." }] }] });
    const r = await runHeadless(sb, ["-p", "what is in @pic.png", "--host", ollama.url, "--model", VISION.name]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const user = ollama.chats[0]!.messages.find((m) => m.role === "user") as { images?: string[] };
    expect(user.images).toEqual([PNG.toString("base64")]);
  });

  it("a model that cannot see: a notice on stderr, exit 1, nothing sent", async () => {
    fs.writeFileSync(path.join(sb.project, "pic.png"), PNG);
    ollama = await startFakeOllama({ models: [{ name: "qwen3:8b" }], replies: [{ steps: [{ text: "never" }] }] });
    const r = await runHeadless(sb, ["-p", "what is in @pic.png", "--host", ollama.url, "--model", "qwen3:8b"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("qwen3:8b cannot see images");
    expect(r.stderr).toContain("Nothing was sent");
    expect(ollama.chats).toHaveLength(0);
  });

  // docs.anthropic.com/en/docs/build-with-claude/vision: {type: "image", source: {type: "base64", media_type, data}}.
  it("Anthropic: a base64 image block, scaled down to 1568 px", async () => {
    fs.writeFileSync(path.join(sb.project, "wide.png"), await png(2400, 1200));
    anthropic = await startFakeAnthropic({
      models: [{ id: "claude-test", vision: true }],
      replies: [{ blocks: [{ text: "Wide." }] }],
    });
    sb.env.ANTHROPIC_API_KEY = "sk-ant-test-0000";
    sb.env.ANTHROPIC_BASE_URL = anthropic.url;
    const r = await runHeadless(sb, ["-p", "what is in @wide.png", "--model", "anthropic/claude-test"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("was 2400×1200");
    const body = anthropic.requests.find((q) => q.method === "POST")!.body as {
      messages: {
        role: string;
        content: { type: string; source?: { type: string; media_type: string; data: string } }[];
      }[];
    };
    const block = body.messages[0]!.content[0]!;
    expect(block).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png" } });
    expect((await sizeOf(block.source!.data)).slice(0, 2)).toEqual([1568, 784]);
  });

  // platform.openai.com/docs/guides/images-vision: {type: "image_url", image_url: {url: "data:image/png;base64,…"}}.
  it("OpenAI-compatible: a data-URL image_url part", async () => {
    fs.writeFileSync(path.join(sb.project, "pic.png"), PNG);
    openai = await startFakeOpenAI({ replies: [{ text: "A pixel." }] });
    sb.env.OPENAI_API_KEY = "sk-test-0000";
    const args = ["--provider", "openai", "--base-url", `${openai.url}/v1`, "--model", "local-model"];
    const r = await runHeadless(sb, ["-p", "what is in @pic.png", ...args]);
    expect(r.code).toBe(0);
    const body = openai.requests.find((q) => q.method === "POST")!.body as {
      messages: { role: string; content: unknown }[];
    };
    expect(body.messages.find((m) => m.role === "user")!.content).toContainEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` },
    });
  });
});
