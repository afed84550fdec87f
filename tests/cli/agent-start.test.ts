// The agent of a headless run, served on the main thread through a MessageChannel.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAgent } from "../../src/cli/agent-start.js";
import type { AgentEvent } from "../../src/protocol/agent-event.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { testConfig } from "../ui/helpers.js";

const done = (events: AgentEvent[]) => events.find((e) => e.type === "done");

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
}

describe("the in-process agent", () => {
  let fake: FakeOllama | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("runs the agent loop on this thread: the answer arrives, then done; close() stops it", async () => {
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b" }], replies: [{ steps: [{ text: "Hello there." }] }] });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-inproc-"));
    const events: AgentEvent[] = [];
    const { agent, listen } = startAgent();
    listen((e) => events.push(e));
    const conversation: ConversationMessage[] = [{ role: "user", content: "say hello" }];
    agent.send({
      type: "run",
      runId: 7,
      conversation,
      config: testConfig({ host: fake.url, cwd: dir, dataDir: dir, configDir: dir, interactive: false }),
      last: true,
    });
    // Commands are copies, as across a worker's port: what the caller changes afterwards is not
    // what the agent runs on.
    conversation.push({ role: "user", content: "INJECTED AFTER SENDING" });
    await until(() => done(events) !== undefined);
    expect(done(events)).toEqual({ type: "done", reason: "complete", runId: 7 });
    const answer = events.find((e) => e.type === "message" && e.message.role === "assistant");
    expect(answer).toMatchObject({ message: { content: "Hello there." }, runId: 7 });
    const sent = fake.chats[0]!.messages.filter((m) => m.role !== "system").map((m) => m.content);
    expect(sent).toEqual(["say hello"]);
    await agent.close();
  });

  it("code that cannot load ends each run with an error instead of hanging", async () => {
    const events: AgentEvent[] = [];
    const { agent, listen } = startAgent(() => Promise.reject(new Error("Cannot find module 'serve-123.js'")));
    listen((e) => events.push(e));
    // One run sent before the failure is known, one after.
    agent.send({ type: "run", runId: 1, conversation: [], config: testConfig(), last: true });
    await until(() => done(events) !== undefined);
    agent.send({ type: "run", runId: 2, conversation: [], config: testConfig(), last: true });
    expect(events).toEqual([
      expect.objectContaining({ type: "error", runId: 1, message: expect.stringContaining("serve-123.js") }),
      { type: "done", reason: "error", runId: 1 },
      expect.objectContaining({ type: "error", runId: 2, hint: expect.stringContaining("npm install") }),
      { type: "done", reason: "error", runId: 2 },
    ]);
    await agent.close();
  });
});
