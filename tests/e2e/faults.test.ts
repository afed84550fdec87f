// Fault injection with the fake Ollama: whatever the server does wrong, the partial answer is kept
// (on screen and in the session file, marked interrupted), an error is shown, the session file
// stays valid, and the app goes on answering.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/agent-event.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { loadSession } from "../../src/session/writer.js";
import { startFakeOllama, type FakeOllama, type Reply } from "../fakes/ollama-server.js";
import { testConfig } from "../ui/helpers.js";
import { ROOT, runHeadless, sandbox, sessionFiles, Tui, type Sandbox, eachTest } from "./harness.js";

const MODEL = "qwen3:8b";

/** A short stream idle timeout, so a stalled server ends the request within the test. */
function writeConfig(sb: Sandbox): void {
  const dir = path.join(sb.env.XDG_CONFIG_HOME!, "agent0");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ idleTimeoutMs: 1000 }));
}

function onlySession(sb: Sandbox): { id: string; messages: ConversationMessage[] } {
  const files = sessionFiles(sb);
  expect(files).toHaveLength(1);
  const loaded = loadSession(files[0]!);
  if (!loaded.ok) throw new Error(`the session file does not load: ${loaded.error}`);
  expect(loaded.damaged).toEqual([]);
  // Token counts kept on answers are the status line's (tests/e2e/status-truths.test.ts); here
  // only what was said matters.
  return { id: loaded.header.id, messages: loaded.messages.map(({ usage: _usage, ...m }) => m) };
}

const headless = (sb: Sandbox, fake: FakeOllama, prompt: string, more: string[] = []) =>
  runHeadless(sb, ["-p", prompt, "--host", fake.url, "--model", MODEL, "--output-format", "json", ...more]);

// The partial text goes out first; the fault comes a moment later, as a real failure would
// (a reset arriving together with the data makes the kernel drop the unread data).
const PAUSE = 150;

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

describe("faults from the server, in the TUI", () => {
  let sb: Sandbox;
  let tui: Tui | undefined;
  let fake: FakeOllama | undefined;
  beforeEach(() => {
    sb = sandbox();
    writeConfig(sb);
  });
  afterEach(async () => {
    tui?.kill();
    await fake?.close();
    sb.cleanup();
  });

  it("a reset and then a stall: each partial answer stays on screen marked interrupted, with the error; then it answers again", async () => {
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        { steps: [{ text: "First partial answer" }, { destroy: true, delayMs: PAUSE }] },
        { steps: [{ text: "Second partial answer" }, { hang: true }] },
        { steps: [{ text: "Third answer, complete." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL], { width: 100, height: 40 });
    await tui.waitFor("Ask anything");

    tui.type("question one");
    tui.press("Enter");
    let screen = await tui.waitFor("the connection closed before the answer finished");
    expect(screen).toMatch(/First partial answer\s*\n\s*⏹ interrupted/);
    await tui.waitFor("Ask anything");

    tui.type("question two");
    tui.press("Enter");
    screen = await tui.waitFor("Ollama sent nothing for 1 s");
    expect(screen).toMatch(/Second partial answer\s*\n\s*⏹ interrupted/);
    expect(screen).toContain("First partial answer");
    await tui.waitFor("Ask anything");

    tui.type("question three");
    tui.press("Enter");
    await tui.waitFor("Third answer, complete.");
    const sent = fake.chats[2]!.messages.filter((m) => m.role !== "system").map((m) => `${m.role}: ${m.content}`);
    expect(sent).toEqual([
      "user: question one",
      "assistant: First partial answer",
      "user: question two",
      "assistant: Second partial answer",
      "user: question three",
    ]);

    tui.press("C-d");
    await tui.waitFor("[exit 0]");
    expect(onlySession(sb).messages).toEqual([
      { role: "user", content: "question one", sentAt: expect.any(Number) },
      { role: "assistant", content: "First partial answer", interrupted: true },
      { role: "user", content: "question two", sentAt: expect.any(Number) },
      { role: "assistant", content: "Second partial answer", interrupted: true },
      { role: "user", content: "question three", sentAt: expect.any(Number) },
      { role: "assistant", content: "Third answer, complete." },
    ]);
  });
});

describe("worker death", () => {
  let sb: Sandbox;
  let tui: Tui | undefined;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("a crashed worker is replaced mid-run: the error and done are reported, and the next run carries the whole conversation", async () => {
    // The built handle: its worker is dist/agent/worker.js.
    const { AgentHandle } = (await import(
      path.join(ROOT, "dist", "ui", "runtime", "agent-handle.js")
    )) as typeof import("../../src/ui/runtime/agent-handle.js");
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        { steps: [{ text: "first answer" }] },
        { steps: [{ text: "slow", delayMs: 10_000 }] },
        { steps: [{ text: "after the crash" }] },
      ],
    });
    const events: AgentEvent[] = [];
    const waiting: (() => void)[] = [];
    let seen = 0;
    /** The next event of this type after the last one taken: waits for the event, never for time. */
    const next = (type: AgentEvent["type"]): Promise<AgentEvent> =>
      new Promise((resolve) => {
        const look = () => {
          const i = events.findIndex((e, n) => n >= seen && e.type === type);
          if (i < 0) return void waiting.push(look);
          seen = i + 1;
          resolve(events[i]!);
        };
        look();
      });
    const agent = new AgentHandle((e) => {
      events.push(e);
      for (const look of waiting.splice(0)) look();
    });
    try {
      const config = testConfig({
        host: fake.url,
        model: MODEL,
        cwd: sb.project,
        dataDir: sb.home,
        configDir: sb.home,
      });
      const u1: ConversationMessage = { role: "user", content: "question one" };
      agent.send({ type: "run", runId: 1, conversation: [u1], config });
      expect(await next("done")).toEqual({ type: "done", reason: "complete", runId: 1 });
      const a1: ConversationMessage = { role: "assistant", content: "first answer" };
      const u2: ConversationMessage = { role: "user", content: "question two" };
      agent.send({ type: "run", runId: 2, conversation: [u1, a1, u2], config });
      await fake.waitForChats(2);
      agent.crashForTest();
      expect(await next("error")).toMatchObject({
        message: "The agent worker stopped unexpectedly (exit code 1).",
        hint: "A new worker was started; your conversation is kept. Send your message again to continue.",
      });
      expect(await next("done")).toEqual({ type: "done", reason: "error", runId: 2 });

      const u3: ConversationMessage = { role: "user", content: "question three" };
      agent.send({ type: "run", runId: 3, conversation: [u1, a1, u2, u3], config });
      expect(await next("done")).toEqual({ type: "done", reason: "complete", runId: 3 });
      expect(events.some((e) => e.type === "message" && e.message.content === "after the crash")).toBe(true);
      expect(fake.chats[2]!.messages.filter((m) => m.role !== "system").map((m) => m.content)).toEqual([
        "question one",
        "first answer",
        "question two",
        "question three",
      ]);
    } finally {
      await agent.close();
    }
  });

  // Needs the worker's fault hook: AGENT0_FAULT=worker-exit-on:<marker> makes the worker exit with
  // code 1 when it receives a run whose last user message contains <marker>.
  it("in the TUI: the screen says the worker stopped and a new one started, and the session goes on", async () => {
    const MARKER = "CRASH-THE-WORKER";
    sb.env.AGENT0_FAULT = `worker-exit-on:${MARKER}`;
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [{ steps: [{ text: "The first answer." }] }, { steps: [{ text: "Still here after the crash." }] }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL], { width: 120, height: 40 });
    await tui.waitFor("Ask anything");
    tui.type("first question");
    tui.press("Enter");
    await tui.waitFor("The first answer.");

    tui.type(`please ${MARKER} now`);
    tui.press("Enter");
    const screen = await tui.waitFor("A new worker was started");
    expect(screen).toContain("The agent worker stopped unexpectedly (exit code 1).");
    await tui.waitFor("Ask anything");
    expect(fake.chats).toHaveLength(1);

    tui.type("third question");
    tui.press("Enter");
    await tui.waitFor("Still here after the crash.");
    const sent = fake.chats[1]!.messages.filter((m) => m.role !== "system").map((m) => `${m.role}: ${m.content}`);
    expect(sent).toEqual([
      "user: first question",
      "assistant: The first answer.",
      `user: please ${MARKER} now`,
      "user: third question",
    ]);

    tui.press("C-d");
    await tui.waitFor("[exit 0]");
    expect(onlySession(sb).messages.map((m) => m.content)).toEqual([
      "first question",
      "The first answer.",
      `please ${MARKER} now`,
      "third question",
      "Still here after the crash.",
    ]);
  });
});
