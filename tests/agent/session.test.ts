// The agent session driven directly: commands in, events out, with a scripted model and a tool
// that asks — no worker, no port, no UI. What a run-scoped feature needs (a run, an approval round
// trip, a cancel, a compaction, two sessions in one thread) is tested here alone.
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { createAgentSession, type AgentSession } from "../../src/agent/session.js";
import type { AgentEvent } from "../../src/protocol/agent-event.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import type { WorkerCommand } from "../../src/protocol/worker-command.js";
import { defineTool, type ToolDef } from "../../src/tools/types.js";
import { readFileTool } from "../../src/tools/files/read.js";
import { writeFileTool } from "../../src/tools/files/write.js";
import { Checkpoints } from "../../src/session/checkpoints.js";
import type { Provider } from "../../src/providers/types.js";
import { scriptedProvider, type Reply } from "./scripted-provider.js";
import { tempProject, testConfig } from "../tools/ctx.js";

/** A tool that asks before it acts, and says what the answer was. */
const pokeTool: ToolDef = defineTool({
  name: "poke",
  description: "Pokes (asks first).",
  schema: z.object({}),
  readOnly: false,
  concurrentSafe: false,
  label: () => "poke",
  async run(_args, ctx) {
    const answer = await ctx.approve({ tool: "poke", kind: "other", args: {}, preview: "poke it" });
    return answer.ok ? { content: "poked" } : { content: `refused: ${answer.reason}`, isError: true };
  },
});

interface Harness {
  session: AgentSession;
  events: AgentEvent[];
  provider: Provider & { requests: unknown[] };
  config: RunConfig;
  send(cmd: WorkerCommand): void;
  /** Resolves with the first event of this type (already seen, or still to come) that matches. */
  next<T extends AgentEvent["type"]>(
    type: T,
    match?: (e: Extract<AgentEvent, { type: T }>) => boolean,
  ): Promise<Extract<AgentEvent, { type: T }>>;
}

const sessions: AgentSession[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  for (const c of cleanups.splice(0)) c();
});

function harness(replies: Reply[], dir?: string): Harness {
  if (!dir) {
    const project = tempProject({ "a.txt": "alpha\n" });
    cleanups.push(project.cleanup);
    dir = project.dir;
  }
  const provider = scriptedProvider(replies);
  const config: RunConfig = { ...testConfig(dir), interactive: true, sessionId: "s1" };
  const events: AgentEvent[] = [];
  const waiters: (() => void)[] = [];
  const session = createAgentSession({
    post: (e) => {
      events.push(e);
      for (const w of waiters.splice(0)) w();
    },
    createProvider: () => provider,
    toolsFor: () => [pokeTool, readFileTool, writeFileTool],
    checkpoints: (dir) => new Checkpoints(dir),
  });
  sessions.push(session);
  const next: Harness["next"] = (type, match = () => true) =>
    new Promise((resolve) => {
      const look = () => {
        const found = events.find(
          (e): e is Extract<AgentEvent, { type: typeof type }> => e.type === type && match(e as never),
        );
        if (found) resolve(found);
        else waiters.push(look);
      };
      look();
    });
  return { session, events, provider, config, send: (cmd) => session.handle(cmd), next };
}

const go: ConversationMessage[] = [{ role: "user", content: "go" }];

describe("an agent session", () => {
  it("answers a run with its events, each naming the run, and ends it with done", async () => {
    const h = harness([{ text: "Hello." }]);
    h.send({ type: "run", runId: 7, conversation: go, config: h.config });
    const done = await h.next("done");
    expect(done).toEqual({ type: "done", reason: "complete", runId: 7 });
    const texts = h.events.flatMap((e) => (e.type === "text" ? [e.delta] : []));
    expect(texts.join("")).toBe("Hello.");
    const runless = h.events.filter((e) => e.runId !== 7).map((e) => e.type);
    expect(runless).toEqual([]);
  });

  it("an approval goes out as permission-request and the reply naming the run lets the tool run", async () => {
    const h = harness([{ calls: [{ id: "c1", name: "poke", args: {} }] }, { text: "Done." }]);
    h.send({ type: "run", runId: 1, conversation: go, config: h.config });
    const ask = await h.next("permission-request");
    expect(ask).toMatchObject({ tool: "poke", preview: "poke it", runId: 1 });
    h.send({ type: "permission-reply", runId: 1, id: ask.id, decision: "once" });
    expect(await h.next("done")).toMatchObject({ reason: "complete" });
    const end = await h.next("tool-end");
    expect(end.display).toMatchObject({ ok: true });
    const result = h.events.find((e) => e.type === "message" && e.message.role === "tool");
    expect(result).toMatchObject({ message: { content: "poked" } });
  });

  it("a denial with a reason reaches the model as the tool's result", async () => {
    const h = harness([{ calls: [{ id: "c1", name: "poke", args: {} }] }, { text: "OK, I will not." }]);
    h.send({ type: "run", runId: 1, conversation: go, config: h.config });
    const ask = await h.next("permission-request");
    h.send({ type: "permission-reply", runId: 1, id: ask.id, decision: "deny", reason: "use tabs" });
    await h.next("done");
    const result = h.events.find((e) => e.type === "message" && e.message.role === "tool");
    expect(result).toMatchObject({ message: { content: "refused: use tabs" } });
  });

  it("cancel naming the run stops it while it waits for the user; a reply afterwards is dropped and logged", async () => {
    const h = harness([{ calls: [{ id: "c1", name: "poke", args: {} }] }, { text: "unused" }]);
    h.send({ type: "run", runId: 3, conversation: go, config: h.config });
    const ask = await h.next("permission-request");
    h.send({ type: "cancel", runId: 3 });
    expect(await h.next("done")).toEqual({ type: "done", reason: "interrupted", runId: 3 });
    h.send({ type: "permission-reply", runId: 3, id: ask.id, decision: "once" });
    const log = await h.next("log");
    expect(log).toEqual({ type: "log", text: "permission-reply for run 3 dropped: no run is going", runId: null });
    // The model was asked once: the stopped run never went on to a second step.
    expect(h.provider.requests).toHaveLength(1);
  });

  it("a cancel or set-mode naming another run leaves the run going alone", async () => {
    const h = harness([{ calls: [{ id: "c1", name: "poke", args: {} }] }, { text: "Done." }]);
    h.send({ type: "run", runId: 5, conversation: go, config: h.config });
    const ask = await h.next("permission-request");
    h.send({ type: "cancel", runId: 4 });
    h.send({ type: "set-mode", runId: 4, mode: "plan" });
    const logs = h.events.flatMap((e) => (e.type === "log" ? [e.text] : []));
    expect(logs).toEqual(["cancel for run 4 dropped: run 5 is going", "set-mode for run 4 dropped: run 5 is going"]);
    h.send({ type: "permission-reply", runId: 5, id: ask.id, decision: "once" });
    expect(await h.next("done")).toEqual({ type: "done", reason: "complete", runId: 5 });
  });

  it('"always" is recorded once, in the worker: later calls run unasked and the UI is told the key', async () => {
    const h = harness([
      { calls: [{ id: "c1", name: "poke", args: {} }] },
      { calls: [{ id: "c2", name: "poke", args: {} }] },
      { text: "Done." },
    ]);
    h.send({ type: "run", runId: 1, conversation: go, config: h.config });
    const ask = await h.next("permission-request");
    h.send({ type: "permission-reply", runId: 1, id: ask.id, decision: "always" });
    await h.next("done");
    expect(h.events.filter((e) => e.type === "permission-request")).toHaveLength(1);
    expect(h.events.filter((e) => e.type === "allowed")).toEqual([{ type: "allowed", key: "poke", runId: 1 }]);
  });

  it("set-mode naming the run changes the mode its next call is judged by", async () => {
    const h = harness([
      { calls: [{ id: "c1", name: "poke", args: {} }] },
      { calls: [{ id: "c2", name: "poke", args: {} }] },
      { text: "Done." },
    ]);
    h.send({ type: "run", runId: 1, conversation: go, config: h.config });
    const ask = await h.next("permission-request");
    h.send({ type: "set-mode", runId: 1, mode: "yolo" });
    h.send({ type: "permission-reply", runId: 1, id: ask.id, decision: "once" });
    await h.next("done");
    // The second call ran unasked: yolo was the mode when it came.
    expect(h.events.filter((e) => e.type === "permission-request")).toHaveLength(1);
    const results = h.events.flatMap((e) => (e.type === "message" && e.message.role === "tool" ? [e.message] : []));
    expect(results.map((m) => m.content)).toEqual(["poked", "poked"]);
  });

  it("compacts on request: the summary replaces the old turns, and the compaction ends with done", async () => {
    const h = harness([{ text: "Summary: the user said hello twice." }]);
    const long: ConversationMessage[] = [];
    for (let i = 0; i < 6; i++)
      long.push({ role: "user", content: `hello ${i}` }, { role: "assistant", content: "hi" });
    h.send({ type: "compact", runId: 9, conversation: long, config: h.config });
    const compacted = await h.next("compacted");
    expect(compacted.runId).toBe(9);
    expect(compacted.conversation.length).toBeLessThan(long.length);
    expect(JSON.stringify(compacted.conversation)).toContain("the user said hello twice");
    expect(await h.next("done")).toEqual({ type: "done", reason: "complete", runId: 9 });
  });

  it("two sessions side by side keep their runs, approvals and read files apart", async () => {
    const a = harness([{ calls: [{ id: "c1", name: "poke", args: {} }] }, { text: "A done." }]);
    const b = harness([{ calls: [{ id: "c1", name: "poke", args: {} }] }, { text: "B done." }]);
    a.send({ type: "run", runId: 1, conversation: go, config: a.config });
    b.send({ type: "run", runId: 1, conversation: go, config: b.config });
    const askA = await a.next("permission-request");
    const askB = await b.next("permission-request");
    // The same run id and request id in both: a cancel in one must not reach the other.
    expect(askA.id).toBe(askB.id);
    a.send({ type: "cancel", runId: 1 });
    expect(await a.next("done")).toMatchObject({ reason: "interrupted" });
    b.send({ type: "permission-reply", runId: 1, id: askB.id, decision: "once" });
    expect(await b.next("done")).toMatchObject({ reason: "complete" });
    expect(b.events.some((e) => e.type === "log")).toBe(false);
    const answers = (h: Harness) =>
      h.events.flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? [e.message.content] : []));
    expect(answers(b)).toContain("B done.");
    expect(answers(a)).not.toContain("A done.");
  });

  it("what one session's model read does not count as read in another (the same session id, the same folder)", async () => {
    const project = tempProject({ "a.txt": "alpha\n" });
    cleanups.push(project.cleanup);
    const write = { id: "w", name: "write_file", args: { path: "a.txt", content: "beta\n" } };
    const a = harness(
      [{ calls: [{ id: "r", name: "read_file", args: { path: "a.txt" } }] }, { calls: [write] }, { text: "A." }],
      project.dir,
    );
    const b = harness(
      [{ calls: [{ ...write, args: { path: "a.txt", content: "gamma\n" } }] }, { text: "B." }],
      project.dir,
    );
    for (const h of [a, b]) h.config.permissionMode = "yolo";
    a.send({ type: "run", runId: 1, conversation: go, config: a.config });
    await a.next("done");
    b.send({ type: "run", runId: 1, conversation: go, config: b.config });
    await b.next("done");
    const writeResult = (h: Harness) =>
      h.events.flatMap((e) => (e.type === "message" && e.message.toolName === "write_file" ? [e.message.content] : []));
    expect(writeResult(a)).toEqual([expect.stringContaining("a.txt")]);
    expect(writeResult(a)[0]).not.toContain("Error");
    expect(writeResult(b)).toEqual([expect.stringContaining("you have not read it in this session")]);
  });

  it("close stops a run that waits for the user", async () => {
    const h = harness([{ calls: [{ id: "c1", name: "poke", args: {} }] }, { text: "unused" }]);
    h.send({ type: "run", runId: 2, conversation: go, config: h.config });
    await h.next("permission-request");
    await h.session.close();
    expect(await h.next("done")).toMatchObject({ reason: "interrupted", runId: 2 });
  });
});

// Claude Code's hooks reference (code.claude.com/docs/en/hooks): SessionStart's `source` is
// startup | resume | clear | compact, SessionEnd's `reason` clear | logout | prompt_input_exit | other.
describe("SessionStart and SessionEnd name why, as Claude Code's hooks do", () => {
  it("/clear (a new session id, nothing answered) ends the old session with clear and starts one with clear; quitting from the input says prompt_input_exit", async () => {
    const project = tempProject({});
    cleanups.push(project.cleanup);
    const log = `${project.dir}/hooks.log`;
    // Each hook appends its event and the field that says why.
    const hook = (field: string) => [
      {
        hooks: [
          {
            type: "command" as const,
            command: `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);require("fs").appendFileSync(${JSON.stringify(log)}, j.hook_event_name+" "+j.${field}+"\\n")})'`,
          },
        ],
        source: "test",
      },
    ];
    const h = harness([{ text: "One." }, { text: "Two." }], project.dir);
    const config: RunConfig = { ...h.config, hooks: { SessionStart: hook("source"), SessionEnd: hook("reason") } };
    h.send({ type: "run", runId: 1, conversation: go, config });
    await h.next("done", (e) => e.runId === 1);
    h.send({ type: "run", runId: 2, conversation: go, config: { ...config, sessionId: "s2" } });
    await h.next("done", (e) => e.runId === 2);
    h.send({ type: "shutdown", reason: "prompt_input_exit" });
    const { readFileSync, existsSync } = await import("node:fs");
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !(existsSync(log) && readFileSync(log, "utf8").includes("prompt_input_exit")))
      await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual([
      "SessionStart startup",
      "SessionEnd clear",
      "SessionStart clear",
      "SessionEnd prompt_input_exit",
    ]);
  });
});
