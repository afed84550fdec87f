// Images in the TUI, from files a user really has: a large `@image` reaches the model scaled down,
// with a notice, and a pasted path to an image attaches it (the basic cases: images.test.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { png, PNG, sendNaming, shown, sizeOf, VISION } from "./images-setup.js";
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

  // Anthropic's vision guide: an image over 1568 px on its long edge is scaled down before the
  // model sees it, and the API refuses one over 5 MB as base64; Claude Code scales before sending.
  it("a large @image reaches the model scaled down, and the user is told", async () => {
    fs.writeFileSync(path.join(sb.project, "big.png"), await png(3000, 2000));
    fake = await startFakeOllama({ models: [VISION], replies: [{ steps: [{ text: "A gradient." }] }] });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", VISION.name], { width: 120, height: 40 });
    await sendNaming(sb, tui, "what is in @big.png please");
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
