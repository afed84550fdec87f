// Issue 43's check 1, end to end against the fakes: every server's overflow 400 (vLLM, llama.cpp,
// SGLang, LM Studio, Ollama) is compacted for once and the run completes. Split from
// user-words.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type Reply } from "../fakes/ollama-server.js";
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIServer } from "../fakes/openai-server.js";
import { Tui, runHeadless, type Sandbox, eachTest } from "./harness.js";
import { MODEL, openaiArgs } from "./user-words-setup.js";

describe("the user's words, whole and last", () => {
  let ollama: FakeOllama | undefined;
  let openai: FakeOpenAI | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, ollama, openai],
  );

  // Each server's own refusal (tests/fakes/openai-server.ts overflowRefusal, sources in
  // tests/providers/overflow.test.ts): the fake counts tighter than agent0, so a prompt agent0
  // thinks fits is refused; one compaction, one retry, and the run completes.
  it.each<FakeOpenAIServer["kind"]>(["vllm", "llamacpp", "sglang", "lmstudio"])(
    "%s's overflow 400 leads to one compaction and a completed run",
    async (kind) => {
      // Reported as 16,384, really 12,000: 10,000 estimated tokens of history pass agent0's check.
      const server: FakeOpenAIServer = { kind, model: "local", contextLength: 16384, holds: 12_000, v1: true };
      openai = await startFakeOpenAI({
        server,
        replies: [
          { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
          { text: "Summary: the user asked for a summary of notes.txt, which was read." },
          { text: "Done after compacting." },
        ],
      });
      // A file the model reads: its output makes the next request longer than the server holds.
      fs.writeFileSync(path.join(sb.project, "notes.txt"), "an old note that the model reads once;\n".repeat(600));
      const r = await runHeadless(sb, ["-p", "Summarize notes.txt", ...openaiArgs(openai, "local")]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("Done after compacting.");
      expect(r.stderr.match(/refused the prompt as longer than its context window/g)).toHaveLength(1);
    },
    40_000,
  );

  it("Ollama's overflow 400 leads to one compaction and a completed run", async () => {
    // ollama/ollama llm/llama_server.go, with `truncate: false` (api/types.go ChatRequest.Truncate).
    const refusal: Reply = {
      steps: [],
      status: 400,
      body: {
        error:
          "the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length",
      },
    };
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ text: "First." }] },
        refusal,
        { steps: [{ text: "Summary: a first question, answered." }] },
        { steps: [{ text: "Done after compacting." }] },
      ],
    });
    const args = ["--host", ollama.url, "--model", MODEL.name];
    tui = await Tui.open(sb, args);
    await tui.ask("first question", "First.");
    tui.send("second question");
    await tui.waitFor("Done after compacting.", 20_000);
    const screen = tui.screen();
    expect(screen.match(/refused the prompt as longer than its context window/g)).toHaveLength(1);
    expect(ollama.chats.every((c) => c.body.truncate === false)).toBe(true);
  }, 60_000);
});
