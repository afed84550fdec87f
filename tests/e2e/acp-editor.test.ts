// `agent0 acp` using what the editor offers, driven by the ACP SDK's own client side: reads and
// writes through its fs/* (the buffer, not the disk, a sub-agent's too), shell commands in its
// terminal, its answers to an approval (reject with a reason, allow always), and its MCP servers'
// prompts with skills and built-ins as commands. Split from acp.test.ts (issue 30's checks).
import fs from "node:fs";
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, ROOT, waitUntil, type Sandbox } from "./harness.js";
import { allow, expectOnlyProtocol, initialize, startAcp, updatesOf, type AcpRun } from "./acp-client.js";

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

describe("agent0 acp", () => {
  it("offers built-ins, skills and the client's MCP server prompts as commands, and runs them", async () => {
    fs.mkdirSync(path.join(sb.project, ".claude", "commands"), { recursive: true });
    fs.writeFileSync(path.join(sb.project, ".claude", "commands", "review.md"), "Review $ARGUMENTS carefully.\n");
    // The demo server's `look` prompt holds an image: a model that sees gets it (one that does not is refused).
    ollama = await startFakeOllama({ models: [{ ...MODEL, capabilities: ["completion", "tools", "vision"] }] });
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
    expect(ollama.chats.at(-1)!.messages.at(-1)!.images).toHaveLength(1);
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
