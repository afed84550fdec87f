// Issue 43's checks 1 and 2, end to end against the fakes: the user's words are never cut, every
// server's overflow 400 is compacted for and the run completes, a cut prompt is caught on every
// provider, and a mode note goes in before the user's message, never after it. The overflow 400s
// of each server are in user-words-overflow.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/openai-server.js";
import { Tui, runHeadless, type Sandbox, eachTest } from "./harness.js";
import { MODEL, openaiArgs } from "./user-words-setup.js";
import { PLAN_MODE_PROMPT } from "../../src/protocol/mode-notes.js";

// The report: a 20,000-character prompt, cut to 400 characters against an assumed 8,192.
const PROMPT = `Review this:\n${"const value = compute(input); // keep\n".repeat(600)}`.slice(0, 20_000);

describe("the user's words, whole and last", () => {
  let ollama: FakeOllama | undefined;
  let openai: FakeOpenAI | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, ollama, openai],
  );

  it("a 20,000-character prompt to a server that reports no window is sent whole", async () => {
    openai = await startFakeOpenAI({
      replies: [{ text: "Reviewed.", usage: { prompt: 9000, completion: 2 } }],
      server: { kind: "openai", model: "local" },
    });
    const r = await runHeadless(sb, ["-p", PROMPT, ...openaiArgs(openai, "local")]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Reviewed.");
    const sent = (openai.requests.at(-1)!.body as { messages: { content: string }[] }).messages;
    expect(sent.at(-1)!.content).toBe(PROMPT);
  }, 30_000);

  it("one that holds 2,048 tokens refuses it: refused with the figures, never cut, nothing lost", async () => {
    openai = await startFakeOpenAI({ server: { kind: "openai", model: "local", holds: 2048 } });
    const r = await runHeadless(sb, ["-p", PROMPT, ...openaiArgs(openai, "local")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Your message is about [\d,]+ tokens; .* the model's 2,048-token context window/);
    const chats = openai.requests.filter((q) => q.path.endsWith("/chat/completions"));
    // Sent once whole (the window was unknown), refused, and never sent cut.
    expect(chats).toHaveLength(1);
    expect((chats[0]!.body as { messages: { content: string }[] }).messages.at(-1)!.content).toBe(PROMPT);
  }, 30_000);

  it("in the TUI, a prompt too long for the reported window stays in the input box, with the figures", async () => {
    openai = await startFakeOpenAI({ server: { kind: "llamacpp", model: "small.gguf", contextLength: 4096 } });
    tui = await Tui.open(sb, openaiArgs(openai, "small.gguf"));
    await tui.waitFor(/small\.gguf/);
    const long = `KEEPME ${"word ".repeat(3500)}END`;
    // Pasted, as a long prompt is (tmux's bracketed paste of a buffer loaded from a file).
    const file = path.join(sb.home, "long-prompt.txt");
    fs.writeFileSync(file, long);
    tui.tmux("load-buffer", file);
    tui.tmux("paste-buffer", "-p", "-t", "main");
    // The whole paste is in (a loaded machine delivers it in pieces): Enter before its end would send a part.
    await tui.waitFor(/word END|Pasted/);
    tui.press("Enter");
    // tmux 3.3 paints as bytes come: a capture can hold the error above and the old input below it,
    // so wait for the frame that has both, and then the run's end.
    const inputBox = (screen: string) => screen.slice(screen.lastIndexOf("shift+tab to cycle"));
    const refused = /more than the model's 4,096-token context window/;
    const screen = await tui.waitFor(
      (s) => refused.test(s) && /^idle · /m.test(s) && inputBox(s).includes("word END"),
      20_000,
    );
    expect(screen).toContain("it is back in the input box");
    expect(openai.requests.filter((q) => q.path.endsWith("/chat/completions"))).toHaveLength(0);
    // The words are still there to edit, in the input box below the error, and nowhere else.
    expect(screen.slice(0, screen.lastIndexOf("shift+tab to cycle"))).not.toContain("word END");
  }, 60_000);

  it("a server that read 2,048 of ~3,600 tokens sent is warned about, on every provider, tools counted", async () => {
    // The system prompt and the message alone are under 3,400 tokens (2,048 is more than 60 % of
    // them); the tool schemas sent with them make it far more. Only a count of everything sent sees it.
    const prompt = "hi";
    ollama = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "ok" }], promptEvalCount: 2048 }] });
    const viaOllama = await runHeadless(sb, ["-p", prompt, "--host", ollama.url, "--model", MODEL.name]);
    expect(viaOllama.stderr).toContain("The server cut the prompt to 2,048 tokens");
    openai = await startFakeOpenAI({
      replies: [{ text: "ok", usage: { prompt: 2048, completion: 2 } }],
      server: { kind: "vllm", model: "local", contextLength: 32768 },
    });
    const viaOpenAI = await runHeadless(sb, ["-p", prompt, ...openaiArgs(openai, "local")]);
    expect(viaOpenAI.stderr).toContain("The server cut the prompt to 2,048 tokens");
  }, 40_000);

  it("plan mode changed with Shift+Tab: the note goes in before the user's message, which is last", async () => {
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "Hello." }] }, { steps: [{ text: "1. Make the file." }] }],
    });
    tui = await Tui.open(sb, ["--host", ollama.url, "--model", MODEL.name, "--yolo"]);
    await tui.ask("hello", "Hello.");
    // yolo → ask → auto-edit → plan
    tui.press("BTab");
    tui.press("BTab");
    tui.press("BTab");
    await tui.waitFor(/plan mode: read-only/);
    await tui.ask("TOOLS make the file now", "1. Make the file.");
    const [first, second] = ollama.chats;
    const sent = second!.messages;
    expect(sent.at(-1)).toMatchObject({ role: "user", content: "TOOLS make the file now" });
    expect(sent.at(-2)).toMatchObject({ role: "user", content: PLAN_MODE_PROMPT });
    // Nothing earlier was rewritten: the request extends the one before.
    expect(sent.slice(0, first!.messages.length)).toEqual(first!.messages);
  }, 60_000);

  it("plan mode from --permission-mode plan: the note comes before the first message, in the TUI and headless", async () => {
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "1. Plan." }] }, { steps: [{ text: "1. Plan." }] }],
    });
    const args = ["--host", ollama.url, "--model", MODEL.name, "--permission-mode", "plan"];
    const r = await runHeadless(sb, ["-p", "TOOLS make the file now", ...args]);
    expect(r.code).toBe(0);
    tui = await Tui.open(sb, args);
    await tui.ask("TOOLS make the file now", "1. Plan.");
    for (const chat of ollama.chats) {
      expect(chat.messages.at(-1)).toMatchObject({ role: "user", content: "TOOLS make the file now" });
      expect(chat.messages.at(-2)).toMatchObject({ role: "user", content: PLAN_MODE_PROMPT });
    }
    expect(ollama.chats).toHaveLength(2);
  }, 60_000);
});
