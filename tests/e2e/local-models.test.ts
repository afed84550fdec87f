// Issue 25's checks, end to end in a real terminal against the fake servers: the prompt cache
// stays warm over a session with tools, a `!` line, a todo list and a mode change; /context adds
// up to the status line; a server that cut the prompt is caught on the OpenAI-compatible path, in
// the TUI and headless; a model that is still loading keeps its line and never times out.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type Reply } from "../fakes/ollama-server.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/openai-server.js";
import { Tui, runHeadless, type Sandbox, eachTest } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

describe("local models, fast and whole", () => {
  let fake: FakeOllama | undefined;
  let openai: FakeOpenAI | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake, openai],
  );

  it("ten turns with tools, a ! line, a todo update and a mode change: each request extends the last", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "alpha\n");
    const text = (t: string): Reply => ({ steps: [{ text: t }] });
    const call = (name: string, args: Record<string, unknown>): Reply => ({
      steps: [{ toolCalls: [{ name, arguments: args }] }],
    });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        call("read_file", { path: "a.txt" }),
        text("It says alpha."),
        text("Seen the listing."),
        call("todo_write", {
          todos: [
            { content: "Read a.txt", status: "completed" },
            { content: "Plan", status: "in_progress" },
          ],
        }),
        text("Todo list written."),
        call("grep_files", { pattern: "alpha" }),
        text("Found it once."),
        text("In plan mode: 1. Keep alpha."),
        text("Plan stays."),
        text("Five."),
        text("Six."),
        text("Seven."),
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name, "--yolo"]);
    const ask = async (line: string, answer: string) => {
      tui!.send(line);
      await tui!.waitFor(answer, 15_000);
    };
    await ask("what is in a.txt?", "It says alpha.");
    tui.send("!ls");
    await tui.waitFor("a.txt");
    await ask("look at that listing", "Seen the listing.");
    await ask("keep a todo list", "Todo list written.");
    await ask("where is alpha?", "Found it once.");
    // yolo → ask → auto-edit → plan
    tui.press("BTab");
    tui.press("BTab");
    tui.press("BTab");
    await tui.waitFor(/plan mode: read-only/);
    await ask("plan the next step", "In plan mode: 1. Keep alpha.");
    await ask("and then?", "Plan stays.");
    await ask("five", "Five.");
    await ask("six", "Six.");
    await ask("seven", "Seven.");
    const chats = fake.chats;
    expect(chats.length).toBeGreaterThanOrEqual(10);
    for (let i = 1; i < chats.length; i++) {
      const before = chats[i - 1]!;
      const now = chats[i]!;
      expect(now.messages.slice(0, before.messages.length), `request ${i} extends request ${i - 1}`).toEqual(
        before.messages,
      );
      expect(JSON.stringify(now.tools)).toBe(JSON.stringify(chats[0]!.tools));
      expect(now.options?.num_ctx).toBe(chats[0]!.options?.num_ctx);
      expect(now.keep_alive).toBe(chats[0]!.keep_alive);
    }
    expect(chats[0]!.keep_alive).toBe("30m");
    // The mode change went into a message of its own, after the conversation so far.
    expect(chats.some((c) => c.messages.some((m) => m.content.includes("You are in plan mode")))).toBe(true);
    expect(chats.at(-1)!.messages[0]!.content).not.toContain("You are in plan mode");
  }, 120_000);

  it("/context's parts add up to the status line's figure, within 15 %", async () => {
    fs.writeFileSync(path.join(sb.project, "AGENTS.md"), `# Rules\n${"Use tabs, not spaces. ".repeat(60)}\n`);
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "A long answer. ".repeat(200) }] }],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name], { height: 60 });
    tui.send("explain the rules");
    await tui.waitFor("A long answer.");
    await tui.waitFor(/idle · qwen3/);
    tui.send("/context");
    const screen = await tui.waitFor("Context window:");
    const total = Number(/total\s+~([\d,]+)/.exec(screen)![1]!.replace(/,/g, ""));
    const status = Number(/The status line's ([\d,]+)/.exec(screen)![1]!.replace(/,/g, ""));
    expect(screen).toMatch(/system prompt\s+~[\d,]+/);
    expect(screen).toMatch(/tools\s+~[\d,]+/);
    expect(screen).toMatch(/project context\s+~[\d,]+\s+\d+%\s+AGENTS\.md/);
    expect(screen).toMatch(/messages\s+~[\d,]+/);
    expect(screen).toMatch(/free\s+~[\d,]+/);
    expect(Math.abs(total - status) / status).toBeLessThanOrEqual(0.15);
  }, 60_000);

  it("an OpenAI-compatible server that read 2,048 of an 8k-token prompt is caught, in the TUI and headless", async () => {
    // About 8,000 tokens of project instructions; the server says it read 2,048.
    fs.writeFileSync(path.join(sb.project, "AGENTS.md"), "Keep every line of this file in mind.\n".repeat(840));
    const cut = { text: "ok", usage: { prompt: 2048, completion: 2 } };
    openai = await startFakeOpenAI({
      replies: [cut, cut],
      server: { kind: "vllm", model: "local", contextLength: 32768 },
    });
    const args = ["--provider", "openai", "--base-url", `${openai.url}/v1`, "--model", "local"];
    const r = await runHeadless(sb, ["-p", "hi", ...args]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("The server cut the prompt to 2,048 tokens");
    expect(r.stderr).toContain("Start it with a larger context, or use Ollama's native API");
    tui = await Tui.open(sb, args);
    tui.send("hi");
    await tui.waitFor("The server cut the prompt to 2,048 tokens", 15_000);
    // The session now works in what the server holds.
    await tui.waitFor(/of 2\.0k/);
  }, 60_000);

  it("a model that is still loading keeps its loading line and is not timed out", async () => {
    fs.writeFileSync(path.join(sb.home, ".config", "agent0", "config.json"), JSON.stringify({ idleTimeoutMs: 1000 }));
    fake = await startFakeOllama({
      models: [MODEL],
      loadMs: 4000,
      replies: [{ steps: [{ text: "Loaded and answering." }], loadDelayMs: 3000 }],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name]);
    tui.send("hello");
    // The idle time-out (1 s) is far shorter than the load (4 s): a run it ended would never answer.
    await tui.waitFor(/loading model… \d+s/);
    const screen = await tui.waitFor("Loaded and answering.", 15_000);
    expect(screen).not.toMatch(/timed out|timeout/i);
    // The warm-up and the chat carried the same keep_alive.
    const load = fake.requests.find(
      (r) => r.path === "/api/chat" && (r.body as { messages: unknown[] }).messages.length === 0,
    );
    expect((load?.body as { keep_alive?: unknown }).keep_alive).toBe(fake.chats[0]!.keep_alive);
  }, 60_000);
});
