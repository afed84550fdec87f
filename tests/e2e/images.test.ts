import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/anthropic-server.js";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/openai-server.js";
import { Tui, type Sandbox, eachTest, loggedEvents, runHeadless, sleep, waitUntil } from "./harness.js";

/** The app took the server's answer about the model (its capabilities): the run log has its `model-info`. */
async function shown(sb: Sandbox): Promise<void> {
  await waitUntil(() => loggedEvents(sb).some((e) => e.type === "model-info"), 10_000, "the model's facts");
}

// A 1×1 PNG (the smallest valid one): what `@pic.png` attaches.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A PNG of this size, made here (a gradient, so scaling has something to keep). */
async function png(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) raw.set([(x * 255) / width, (y * 255) / height, 128], (y * width + x) * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** The size of an image as a server received it (base64). */
async function sizeOf(base64: string): Promise<[number, number, number]> {
  const buf = Buffer.from(base64, "base64");
  const meta = await sharp(buf).metadata();
  return [meta.width!, meta.height!, buf.length];
}

const VISION = { name: "qwen2.5vl:7b", contextLength: 32768, capabilities: ["completion", "tools", "vision"] };

// Claude Code attaches an image named in the prompt; Ollama takes it as `images` (base64) on the
// user message (ollama docs/api.md, "Chat request (with images)"), for a model whose /api/show
// capabilities include "vision".
describe("images in end to end", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("@pic.png reaches a vision model as an image", async () => {
    fs.writeFileSync(path.join(sb.project, "pic.png"), PNG);
    const model = { name: "qwen2.5vl:7b", contextLength: 32768, capabilities: ["completion", "tools", "vision"] };
    fake = await startFakeOllama({ models: [model], replies: [{ steps: [{ text: "A single pixel." }] }] });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", model.name], { width: 120, height: 40 });
    await shown(sb);
    tui.type("what is in @pic.png please");
    tui.press("Escape"); // closes the @ menu
    await sleep(200);
    tui.press("Enter");
    await tui.waitFor("A single pixel.");
    const user = fake.chats[0]!.messages.find((m) => m.role === "user") as { content: string; images?: string[] };
    expect(user.images).toEqual([PNG.toString("base64")]);
    expect(user.content).toContain('<attached image="pic.png" type="image/png"');
  });

  it("a text-only model gives the notice and nothing is sent", async () => {
    fs.writeFileSync(path.join(sb.project, "pic.png"), PNG);
    const model = { name: "qwen3:8b", contextLength: 40960 };
    fake = await startFakeOllama({ models: [model], replies: [{ steps: [{ text: "never" }] }] });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", model.name], { width: 120, height: 40 });
    await shown(sb);
    tui.type("what is in @pic.png please");
    tui.press("Escape"); // closes the @ menu
    await sleep(200);
    tui.press("Enter");
    const screen = await tui.waitFor("cannot see images");
    expect(screen).toContain("choose a vision model with /model");
    // The next prompt is the first request the server sees.
    tui.press("C-u");
    await tui.waitFor("Ask anything");
    tui.send("a plain question");
    await fake.waitForChats(1);
    expect(fake.chats).toHaveLength(1);
    expect(fake.chats[0]!.messages.at(-1)!.content).toBe("a plain question");
  });

  // Anthropic's vision guide: an image over 1568 px on its long edge is scaled down before the
  // model sees it, and the API refuses one over 5 MB as base64; Claude Code scales before sending.
  it("a large @image reaches the model scaled down, and the user is told", async () => {
    fs.writeFileSync(path.join(sb.project, "big.png"), await png(3000, 2000));
    fake = await startFakeOllama({ models: [VISION], replies: [{ steps: [{ text: "A gradient." }] }] });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", VISION.name], { width: 120, height: 40 });
    await shown(sb);
    tui.type("what is in @big.png please");
    tui.press("Escape"); // closes the @ menu
    await sleep(200);
    tui.press("Enter");
    const screen = await tui.waitFor("A gradient.");
    expect(screen).toContain("was 3000×2000");
    const user = fake.chats[0]!.messages.find((m) => m.role === "user") as { content: string; images?: string[] };
    const [width, height, bytes] = await sizeOf(user.images![0]!);
    expect([width, height]).toEqual([1568, 1045]);
    expect(bytes).toBeLessThanOrEqual((5 * 1024 * 1024 * 3) / 4);
    expect(user.content).toContain('width="1568" height="1045"');
  });

  // A file dragged into the terminal is pasted as its path (here as iTerm2 pastes it: spaces
  // escaped); Claude Code attaches such an image (anthropics/claude-code#48153).
  it("a pasted path to an image attaches it", async () => {
    const outside = path.join(sb.home, "Desktop");
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, "Screen Shot 1.png"), PNG);
    fake = await startFakeOllama({ models: [VISION], replies: [{ steps: [{ text: "One pixel." }] }] });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", VISION.name], { width: 120, height: 40 });
    await shown(sb);
    tui.type("what is in");
    tui.tmux("set-buffer", `${outside}/Screen\\ Shot\\ 1.png`);
    tui.tmux("paste-buffer", "-p", "-t", "main");
    await tui.waitFor('@"');
    tui.press("Enter");
    await tui.waitFor("One pixel.");
    const user = fake.chats[0]!.messages.find((m) => m.role === "user") as { content: string; images?: string[] };
    expect(user.images).toEqual([PNG.toString("base64")]);
    expect(user.content).toContain(`what is in @"${outside}/Screen Shot 1.png"`);
  });
});

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
