// `agent0 acp` spawned against the fake Ollama and driven by the ACP SDK's own client side: the
// cases of issue 30's checks (an approved edit with its diff, cancel, session/load, a plan, two
// sessions in different modes, reads through the editor, bad input), and a clean stdout.
import fs from "node:fs";
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, ROOT, sessionFiles, waitUntil, type Sandbox } from "./harness.js";
import { initialize, messageText, startAcp, updatesOf, type AcpRun } from "./acp-client.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const DEMO = path.join(ROOT, "tests", "fakes", "mcp-demo-server.mjs");

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

/** Every line on stdout is one JSON-RPC 2.0 message. */
function expectOnlyProtocol(r: AcpRun) {
  expect(r.lines.length).toBeGreaterThan(0);
  for (const line of r.lines) {
    const msg = JSON.parse(line) as { jsonrpc?: string };
    expect(msg.jsonrpc, line).toBe("2.0");
  }
}

const allow = (optionId: string) => async () => ({ outcome: { outcome: "selected" as const, optionId } });

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

  it("offers built-ins, skills and the client's MCP server prompts as commands, and runs them", async () => {
    fs.mkdirSync(path.join(sb.project, ".claude", "commands"), { recursive: true });
    fs.writeFileSync(path.join(sb.project, ".claude", "commands", "review.md"), "Review $ARGUMENTS carefully.\n");
    ollama = await startFakeOllama({ models: [MODEL] });
    const r = await start();
    await initialize(r);
    // The editor's own MCP server starts without the trust question: the user chose it there.
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, {
      cwd: sb.project,
      mcpServers: [
        { name: "demo", command: process.execPath, args: [DEMO], env: [{ name: "MCP_DEMO_MEDIA", value: "1" }] },
      ],
    });
    const names = () =>
      updatesOf(r, sessionId, "available_commands_update")
        .at(-1)
        ?.availableCommands.map((c) => c.name) ?? [];
    await waitUntil(() => names().includes("mcp__demo__look"), 15_000, "the MCP prompt as a command");
    expect(names()).toEqual(expect.arrayContaining(["init", "compact", "undo", "review", "mcp__demo__look"]));

    await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "/review src/parser.ts" }],
    });
    expect(ollama.chats.at(-1)!.messages.at(-1)!.content).toBe("Review src/parser.ts carefully.");
    await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "/mcp__demo__look" }],
    });
    expect(ollama.chats.at(-1)!.messages.at(-1)!.content).toContain("What is in this picture?");
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

  it("reads and writes files through the editor's fs/* when it offers them: the buffer, not the disk", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "saved on disk\n");
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] }] },
        {
          steps: [
            {
              toolCalls: [
                { name: "edit_file", arguments: { path: "a.txt", old_string: "unsaved", new_string: "edited" } },
              ],
            },
          ],
        },
        { steps: [{ text: "Done." }] },
      ],
    });
    const abs = path.join(sb.project, "a.txt");
    const buffers: Record<string, string> = { [abs]: "unsaved buffer text\n" };
    const reads: string[] = [];
    const writes: { path: string; content: string }[] = [];
    const r = await start({
      permission: allow("once"),
      readTextFile: async (req) => {
        reads.push(req.path);
        return { content: buffers[req.path] ?? "" };
      },
      writeTextFile: async (req) => {
        writes.push({ path: req.path, content: req.content });
        buffers[req.path] = req.content;
        return {};
      },
    });
    await initialize(r, { fs: { readTextFile: true, writeTextFile: true } });
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    const answer = await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "read a.txt and edit it" }],
    });
    expect(answer.stopReason).toBe("end_turn");
    expect(reads).toContain(abs);
    // The model saw the editor's buffer, not what is saved on disk.
    const toolResult = ollama.chats[1]!.messages.find((m) => m.role === "tool")!.content;
    expect(toolResult).toContain("unsaved buffer text");
    expect(toolResult).not.toContain("saved on disk");
    // The edit went to the editor (which shows it and can undo it); the disk is untouched.
    expect(writes).toEqual([{ path: abs, content: "edited buffer text\n" }]);
    expect(fs.readFileSync(abs, "utf8")).toBe("saved on disk\n");
    expectOnlyProtocol(r);
  });

  it("runs shell commands in the editor's terminal when it offers one, shown in the tool call", async () => {
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "run_shell_command", arguments: { command: "npm test" } }] }] },
        { steps: [{ text: "Tests pass." }] },
      ],
    });
    const terminal = { output: "12 passing (from the editor)\n", exitCode: 0, created: [], released: [] };
    const r = await start({ permission: allow("once"), terminal });
    await initialize(r, { terminal: true });
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "run the tests" }],
    });
    expect(terminal.created).toHaveLength(1);
    expect(terminal.created[0]).toMatchObject({
      sessionId,
      command: "bash",
      args: ["-c", "exec 2>&1\nnpm test"],
      cwd: sb.project,
    });
    expect(terminal.released).toEqual(["term-1"]);
    const call = updatesOf(r, sessionId, "tool_call")[0]!;
    expect(call.kind).toBe("execute");
    const shown = updatesOf(r, sessionId, "tool_call_update").filter((u) => u.toolCallId === call.toolCallId);
    expect(shown.at(-1)).toMatchObject({ status: "completed", content: [{ type: "terminal", terminalId: "term-1" }] });
    // The model reads the terminal's output as a command of its own.
    expect(ollama.chats[1]!.messages.find((m) => m.role === "tool")!.content).toBe(
      "exit code 0\n12 passing (from the editor)\n",
    );
  });

  it("reject with a reason (an editor with elicitation forms): the model reads why", async () => {
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
        { steps: [{ text: "Understood." }] },
      ],
    });
    const asked: string[] = [];
    const r = await start({
      permission: allow("deny-why"),
      elicit: async (req) => {
        asked.push(req.message);
        return { action: "accept", content: { reason: "keep the greeting, add a farewell below it" } };
      },
    });
    await initialize(r, { elicitation: { form: {} } });
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "change it" }],
    });
    expect(r.permissions[0]!.options.map((o) => o.optionId)).toEqual(["once", "always", "deny", "deny-why"]);
    expect(asked).toHaveLength(1);
    expect(fs.readFileSync(path.join(sb.project, "a.txt"), "utf8")).toBe("hello\n");
    const told = ollama.chats[1]!.messages.find((m) => m.role === "tool")!.content;
    expect(told).toContain("keep the greeting, add a farewell below it");
  });

  it("allow always covers the rest of the session: the next edit does not ask", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "one\n");
    const edit = (from: string, to: string) => ({
      steps: [{ toolCalls: [{ name: "edit_file", arguments: { path: "a.txt", old_string: from, new_string: to } }] }],
    });
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [edit("one", "two"), { steps: [{ text: "1" }] }, edit("two", "three"), { steps: [{ text: "2" }] }],
    });
    const r = await start({ permission: allow("always") });
    await initialize(r);
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await r.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "first" }] });
    await r.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "second" }] });
    expect(fs.readFileSync(path.join(sb.project, "a.txt"), "utf8")).toBe("three\n");
    expect(r.permissions).toHaveLength(1);
  });

  it("a sub-agent (delegate) reads through the editor too", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "saved on disk\n");
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "delegate", arguments: { task: "Read a.txt and say what it holds." } }] }] },
        { steps: [{ toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] }] },
        { steps: [{ text: "It holds the unsaved buffer." }] },
        { steps: [{ text: "Done." }] },
      ],
    });
    const abs = path.join(sb.project, "a.txt");
    const reads: string[] = [];
    const r = await start({
      permission: allow("once"),
      readTextFile: async (req) => {
        reads.push(req.path);
        return { content: "unsaved buffer text\n" };
      },
    });
    await initialize(r, { fs: { readTextFile: true } });
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "delegate it" }],
    });
    expect(reads).toEqual([abs]);
    const subAgentSaw = ollama.chats[2]!.messages.find((m) => m.role === "tool")!.content;
    expect(subAgentSaw).toContain("unsaved buffer text");
  });
});
