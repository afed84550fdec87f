// Issue 25's checks of the context window, end to end against the fake servers: /context adds up
// to the status line, and a server that cut the prompt is caught on the OpenAI-compatible path, in
// the TUI and headless (the rest of issue 25: local-models.test.ts, local-models-loading.test.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
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
});
