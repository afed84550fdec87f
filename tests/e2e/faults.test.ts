// Fault injection with the fake Ollama: whatever the server does wrong, the partial answer is kept
// (on screen and in the session file, marked interrupted), an error is shown, the session file
// stays valid, and the app goes on answering. Headless here; the same faults in the TUI are in
// faults-tui.test.ts, and a worker that dies mid-run in worker-death.test.ts.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { startFakeOllama, type FakeOllama, type Reply } from "../fakes/ollama-server.js";
import { MODEL, onlySession, PAUSE, writeConfig } from "./faults-setup.js";
import { runHeadless, sandbox, type Sandbox } from "./harness.js";

const headless = (sb: Sandbox, fake: FakeOllama, prompt: string, more: string[] = []) =>
  runHeadless(sb, ["-p", prompt, "--host", fake.url, "--model", MODEL, "--output-format", "json", ...more]);

interface Fault {
  name: string;
  reply: Reply;
  /** What was streamed before the fault ("" when nothing was). */
  partial: string;
  error: string;
}

const FAULTS: Fault[] = [
  {
    name: "the connection is reset mid-stream",
    reply: { steps: [{ text: "Partial answer before the reset" }, { destroy: true, delayMs: PAUSE }] },
    partial: "Partial answer before the reset",
    error: "the connection closed before the answer finished",
  },
  {
    name: 'an {"error"} line arrives in the middle of a 200 stream',
    reply: {
      steps: [
        { text: "Partial answer before the error" },
        { error: "llama runner process has terminated", delayMs: PAUSE },
      ],
    },
    partial: "Partial answer before the error",
    error: "llama runner process has terminated",
  },
  {
    name: "the server stalls (the idle timeout ends it)",
    reply: { steps: [{ text: "Partial answer before the stall" }, { hang: true }] },
    partial: "Partial answer before the stall",
    error: "Ollama sent nothing for 1 s in the middle of the answer",
  },
  {
    name: "HTTP 500 with a body",
    reply: { steps: [], status: 500, body: { error: "CUDA error: out of memory" } },
    partial: "",
    error: "Ollama answered 500: CUDA error: out of memory",
  },
  {
    name: "the server closes right after the headers",
    reply: { steps: [], closeAfterHeaders: true },
    partial: "",
    error: "the connection closed before the answer finished",
  },
];

describe("faults from the server, headless", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  beforeEach(() => {
    sb = sandbox();
    writeConfig(sb);
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    sb.cleanup();
  });

  it.each(FAULTS)("$name: partial kept and saved, error shown, session valid, next prompt answered", async (fault) => {
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [fault.reply, { steps: [{ text: "Recovered answer." }] }],
    });
    const first = await headless(sb, fake, "first question");
    expect(first.code).toBe(1);
    expect(first.stderr).toContain(fault.error);
    const out = JSON.parse(first.stdout) as { answer: string; reason: string; error: string };
    expect(out).toMatchObject({ answer: fault.partial, reason: "error" });
    expect(out.error).toContain(fault.error);

    const saved = onlySession(sb);
    const keptPartial: ConversationMessage[] = fault.partial
      ? [{ role: "assistant", content: fault.partial, interrupted: true }]
      : [];
    expect(saved.messages).toEqual([
      { role: "user", content: "first question", sentAt: expect.any(Number) },
      ...keptPartial,
    ]);

    const next = await headless(sb, fake, "second question", ["--resume", saved.id]);
    expect(next.stderr).toBe("");
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ answer: "Recovered answer.", reason: "complete" });
    // The model sees the conversation so far, the partial answer included.
    const sent = fake.chats[1]!.messages.filter((m) => m.role !== "system").map((m) => ({
      role: m.role,
      content: m.content,
    }));
    expect(sent).toEqual([
      { role: "user", content: "first question" },
      ...(fault.partial ? [{ role: "assistant", content: fault.partial }] : []),
      { role: "user", content: "second question" },
    ]);
    expect(onlySession(sb).messages).toEqual([
      { role: "user", content: "first question", sentAt: expect.any(Number) },
      ...keptPartial,
      { role: "user", content: "second question", sentAt: expect.any(Number) },
      { role: "assistant", content: "Recovered answer." },
    ]);
  });

  it("a malformed NDJSON line is skipped with a warning; the rest of the answer arrives", async () => {
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        {
          steps: [
            { text: "Before the bad line," },
            { raw: '{"model":"qwen3:8b","message":{"content":"torn\n' },
            { text: " after it." },
          ],
        },
      ],
    });
    const r = await headless(sb, fake, "hi");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Skipped a line from Ollama that is not JSON");
    expect(JSON.parse(r.stdout)).toMatchObject({ answer: "Before the bad line, after it.", reason: "complete" });
    expect(onlySession(sb).messages.at(-1)).toEqual({ role: "assistant", content: "Before the bad line, after it." });
  });

  it("a chunk split inside a UTF-8 character is decoded whole", async () => {
    const line = new TextEncoder().encode(
      JSON.stringify({
        model: MODEL,
        created_at: new Date().toISOString(),
        message: { role: "assistant", content: "naïve café 漢字 😀" },
        done: false,
      }) + "\n",
    );
    // Cut inside each multi-byte character: its lead byte ends one write, the rest starts the next.
    const cuts = [...line.keys()].filter((i) => line[i]! >= 0xc0).map((i) => i + 1);
    expect(cuts.length).toBe(5);
    const pieces = [0, ...cuts, line.length].slice(1).map((end, i, ends) => line.slice(i === 0 ? 0 : ends[i - 1], end));
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [{ steps: [...pieces.map((raw) => ({ raw, delayMs: 20 })), { text: " fin" }] }],
    });
    const r = await headless(sb, fake, "hi");
    expect(r.code).toBe(0);
    const answer = (JSON.parse(r.stdout) as { answer: string }).answer;
    expect(answer).toBe("naïve café 漢字 😀 fin");
    expect(onlySession(sb).messages.at(-1)).toEqual({ role: "assistant", content: "naïve café 漢字 😀 fin" });
  });
});
