// A worker thread that dies mid-run (the server's faults: faults.test.ts): the error and done are
// reported, a new worker takes over, and the next run carries the whole conversation, through the
// built AgentHandle and on screen in the TUI.
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/agent-event.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { testConfig } from "../ui/helpers.js";
import { MODEL, onlySession } from "./faults-setup.js";
import { ROOT, Tui, type Sandbox, eachTest } from "./harness.js";

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
