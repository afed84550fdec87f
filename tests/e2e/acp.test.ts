// `agent0 acp` spawned against the fake Ollama and driven by the ACP SDK's own client side: the
// cases of issue 30's checks (an approved edit with its diff, cancel, session/load, a plan, two
// sessions in different modes, bad input, /undo), and a clean stdout. What the editor offers (its
// fs/*, terminal, answers to approvals, MCP servers' prompts as commands) is in acp-editor.test.ts.
import fs from "node:fs";
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, sessionFiles, waitUntil, type Sandbox } from "./harness.js";
import { allow, expectOnlyProtocol, initialize, messageText, startAcp, updatesOf, type AcpRun } from "./acp-client.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

let sb: Sandbox;
let ollama: FakeOllama | undefined;
let run: AcpRun | undefined;
eachTest(
  (s) => (sb = s),
  () => [run, ollama],
);

async function start(handlers: Parameters<typeof startAcp>[2] = {}, extra: string[] = []) {
  run = startAcp(sb, ["--host", ollama!.url, "--model", MODEL.name, ...extra], handlers);
  return run;
}

describe("agent0 acp", () => {
  it("initializes, runs an edit the editor approves, and streams its diff", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "one\nhello\nthree\n");
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [
            {
              toolCalls: [
                { name: "edit_file", arguments: { path: "a.txt", old_string: "hello", new_string: "goodbye" } },
              ],
            },
          ],
        },
        { steps: [{ text: "Changed hello to goodbye." }] },
      ],
    });
    const r = await start({ permission: allow("once") });
    const init = await initialize(r);
    expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    expect(init.agentInfo?.name).toBe("agent0");
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.promptCapabilities?.embeddedContext).toBe(true);
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });

    const made = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    expect(made.modes?.availableModes.map((m) => m.id)).toEqual(["ask", "auto-edit", "plan"]);
    expect(made.modes?.currentModeId).toBe("ask");
    const answer = await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId: made.sessionId,
      prompt: [{ type: "text", text: "change hello to goodbye in a.txt" }],
    });
    expect(answer.stopReason).toBe("end_turn");
    expect(fs.readFileSync(path.join(sb.project, "a.txt"), "utf8")).toBe("one\ngoodbye\nthree\n");

    // The approval showed the whole change, on the tool call the editor was told about.
    expect(r.permissions).toHaveLength(1);
    const asked = r.permissions[0]!;
    const call = updatesOf(r, made.sessionId, "tool_call")[0]!;
    expect(call.kind).toBe("edit");
    expect(call.locations?.[0]?.path).toBe(path.join(sb.project, "a.txt"));
    expect(asked.toolCall.toolCallId).toBe(call.toolCallId);
    expect(asked.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    expect(asked.toolCall.content).toEqual([
      {
        type: "diff",
        path: path.join(sb.project, "a.txt"),
        oldText: "one\nhello\nthree",
        newText: "one\ngoodbye\nthree",
      },
    ]);
    const done = updatesOf(r, made.sessionId, "tool_call_update").find((u) => u.toolCallId === call.toolCallId)!;
    expect(done.status).toBe("completed");
    expect(done.content).toEqual(asked.toolCall.content);
    expect(messageText(r, made.sessionId)).toContain("Changed hello to goodbye.");
    expectOnlyProtocol(r);
  });

  it("cancel stops the stream as Esc does: the prompt answers cancelled, the partial answer is kept", async () => {
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "Half an ans" }, { hang: true }] }],
    });
    const r = await start();
    await initialize(r);
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    const answer = r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "write a long essay" }],
    });
    await waitUntil(() => messageText(r, sessionId).includes("Half an ans"), 10_000, "the first chunk");
    await r.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await answer).stopReason).toBe("cancelled");
    await ollama.waitForAbort();
    // The session keeps what was said so far, marked as cut short.
    const saved = sessionFiles(sb)
      .map((f) => fs.readFileSync(f, "utf8"))
      .join("");
    expect(saved).toContain("Half an ans");
    expect(saved).toContain('"interrupted":true');
    // The session goes on: the next prompt runs.
    ollama.setReplies([{ steps: [{ text: "Next." }] }]);
    const next = await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "short then" }],
    });
    expect(next.stopReason).toBe("end_turn");
    expectOnlyProtocol(r);
  });

  it("session/list names a saved session and session/load replays it", async () => {
    ollama = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "Paris is the capital." }] }] });
    const first = await start();
    await initialize(first);
    const { sessionId } = await first.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await first.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "capital of France?" }],
    });
    first.kill();

    const second = await start();
    run = second;
    await initialize(second);
    const listed = await second.agent.request(acp.methods.agent.session.list, { cwd: sb.project });
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    expect(listed.sessions.find((s) => s.sessionId === sessionId)?.title).toContain("capital of France?");
    const loaded = await second.agent.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: sb.project,
      mcpServers: [],
    });
    expect(loaded.modes?.currentModeId).toBe("ask");
    const user = updatesOf(second, sessionId, "user_message_chunk");
    expect(user.map((u) => (u.content.type === "text" ? u.content.text : ""))).toEqual(["capital of France?"]);
    expect(messageText(second, sessionId)).toBe("Paris is the capital.");
    // The loaded session goes on with its history.
    ollama.setReplies([{ steps: [{ text: "Berlin." }] }]);
    await second.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "and Germany?" }],
    });
    const sent = ollama.chats.at(-1)!.messages.map((m) => m.content);
    expect(sent).toContain("capital of France?");
    expect(sent).toContain("Paris is the capital.");
    expect(sent.at(-1)).toBe("and Germany?");
  });

  it("todo_write becomes a plan update", async () => {
    const todos = [
      { content: "Read the parser", status: "completed" },
      { content: "Fix the bug", status: "in_progress" },
      { content: "Add a test", status: "pending" },
    ];
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "todo_write", arguments: { todos } }] }] },
        { steps: [{ text: "On it." }] },
      ],
    });
    const r = await start();
    await initialize(r);
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await r.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "fix it" }] });
    const plans = updatesOf(r, sessionId, "plan");
    expect(plans).toHaveLength(1);
    expect(plans[0]!.entries).toEqual(todos.map((t) => ({ ...t, priority: "medium" })));
    expect(updatesOf(r, sessionId, "tool_call")[0]!.kind).toBe("think");
  });

  it("runs two sessions at once, each in its own mode", async () => {
    // Each session asks to create its own file; which one the model writes follows the prompt.
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: (chat) => {
        const last = chat.messages.at(-1)!;
        if (last.role === "tool") return { steps: [{ text: "Done." }] };
        const name = last.content.includes("first") ? "first.txt" : "second.txt";
        return { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: name, content: "x\n" } }] }] };
      },
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The editor holds its answer to the ask-mode session until both sessions have run their tools.
    const r = await start({
      permission: async () => {
        await held;
        return { outcome: { outcome: "selected", optionId: "once" } };
      },
    });
    await initialize(r);
    const a = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    const b = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    expect(a.sessionId).not.toBe(b.sessionId);
    await r.agent.request(acp.methods.agent.session.setMode, { sessionId: a.sessionId, modeId: "auto-edit" });
    const first = r.agent.request(acp.methods.agent.session.prompt, {
      sessionId: a.sessionId,
      prompt: [{ type: "text", text: "create the first file" }],
    });
    const second = r.agent.request(acp.methods.agent.session.prompt, {
      sessionId: b.sessionId,
      prompt: [{ type: "text", text: "create the second file" }],
    });
    // The auto-edit session finishes while the ask session waits for its approval.
    expect((await first).stopReason).toBe("end_turn");
    expect(fs.existsSync(path.join(sb.project, "first.txt"))).toBe(true);
    expect(fs.existsSync(path.join(sb.project, "second.txt"))).toBe(false);
    await waitUntil(() => r.permissions.length > 0, 10_000, "the ask session's approval request");
    expect(r.permissions.map((p) => p.sessionId)).toEqual([b.sessionId]);
    release();
    expect((await second).stopReason).toBe("end_turn");
    expect(fs.existsSync(path.join(sb.project, "second.txt"))).toBe(true);
    expect(updatesOf(r, a.sessionId, "current_mode_update").map((u) => u.currentModeId)).toEqual(["auto-edit"]);
    expect(updatesOf(r, b.sessionId, "current_mode_update")).toEqual([]);
  });

  it("answers bad input with a JSON-RPC error and keeps serving", async () => {
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "Working" }, { hang: true }] }, { steps: [{ text: "fine" }] }],
    });
    const r = await start();
    await initialize(r);
    const errorOf = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (err: { code?: number; message?: string }) => err,
      );
    // A malformed line: a parse error with id null, on stdout like every answer.
    r.writeRaw("{this is not json\n");
    await waitUntil(() => r.lines.some((l) => l.includes('"code":-32700')), 10_000, "the parse error");
    const parse = JSON.parse(r.lines.find((l) => l.includes('"code":-32700'))!) as { id: unknown };
    expect(parse.id).toBeNull();
    // An unknown method.
    const unknown = await errorOf(r.agent.request("session/teleport", { sessionId: "x" }));
    expect(unknown?.code).toBe(-32601);
    // A prompt for a session that does not exist.
    const missing = await errorOf(
      r.agent.request(acp.methods.agent.session.prompt, { sessionId: "nope", prompt: [{ type: "text", text: "hi" }] }),
    );
    expect(missing?.code).toBe(-32002);
    // A second prompt while one runs.
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    const running = r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "one" }],
    });
    await waitUntil(() => messageText(r, sessionId).includes("Working"), 10_000, "the first prompt to stream");
    const busy = await errorOf(
      r.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "two" }] }),
    );
    expect(busy?.code).toBe(-32600);
    expect(busy?.message).toContain("already answering a prompt");
    // An unknown mode.
    const mode = await errorOf(r.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "yolo" }));
    expect(mode?.code).toBe(-32602);
    await r.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await running).stopReason).toBe("cancelled");
    // Still serving.
    const after = await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "three" }],
    });
    expect(after.stopReason).toBe("end_turn");
    expectOnlyProtocol(r);
  });

  it("/undo restores the files of the last turn", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "hello\n");
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [
            {
              toolCalls: [{ name: "edit_file", arguments: { path: "a.txt", old_string: "hello", new_string: "bye" } }],
            },
          ],
        },
        { steps: [{ text: "Edited." }] },
      ],
    });
    const r = await start();
    await initialize(r);
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await r.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "auto-edit" });
    await r.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "edit it" }] });
    expect(fs.readFileSync(path.join(sb.project, "a.txt"), "utf8")).toBe("bye\n");
    const undo = await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "/undo" }],
    });
    expect(undo.stopReason).toBe("end_turn");
    expect(fs.readFileSync(path.join(sb.project, "a.txt"), "utf8")).toBe("hello\n");
    expect(messageText(r, sessionId)).toContain("Undid the last turn:");
  });
});
