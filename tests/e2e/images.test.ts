// Images in the TUI: `@pic.png` reaches a vision model as an image, and a text-only model gets a
// notice and nothing is sent (a large image scaled down and a pasted path:
// images-large-and-pasted.test.ts; images in -p: images-one-shot.test.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { PNG, sendNaming } from "./images-setup.js";
import { Tui, type Sandbox, eachTest } from "./harness.js";

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
    await sendNaming(sb, tui, "what is in @pic.png please");
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
    await sendNaming(sb, tui, "what is in @pic.png please");
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
});
