// `agent0 mcp serve` spawned against the fake Ollama and driven by the MCP SDK's own Client, with
// and without the elicitation capability: an approved edit, the same refused, cancel, and a
// continued session.
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { BIN, eachTest, sessionFiles, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

let sb: Sandbox;
let ollama: FakeOllama | undefined;
let client: Client | undefined;
eachTest(
  (s) => (sb = s),
  () => [ollama, client],
);

async function connect(
  opts: { elicit?: (message: string) => Record<string, unknown> | "decline"; args?: string[] } = {},
) {
  const transport = new StdioClientTransport({
    command: "node",
    args: [BIN, "mcp", "serve", "--host", ollama!.url, "--model", MODEL.name, ...(opts.args ?? [])],
    cwd: sb.project,
    env: sb.env,
    stderr: "pipe",
  });
  const c = new Client(
    { name: "test-agent", version: "1.0.0" },
    { capabilities: opts.elicit ? { elicitation: {} } : {} },
  );
  const asked: string[] = [];
  if (opts.elicit) {
    const answer = opts.elicit;
    c.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      const a = answer(req.params.message);
      return a === "decline" ? { action: "decline" } : { action: "accept", content: a };
    });
  }
  await c.connect(transport);
  client = c;
  return { client: c, asked };
}

const EDIT = {
  steps: [
    { toolCalls: [{ name: "edit_file", arguments: { path: "a.txt", old_string: "hello", new_string: "goodbye" } }] },
  ],
};

function structured(r: unknown): {
  sessionId: string;
  answer: string;
  filesChanged: string[];
  refused: string[];
  status: string;
} {
  return (r as CallToolResult).structuredContent as never;
}

describe("agent0 mcp serve", () => {
  it("lists its two tools", async () => {
    ollama = await startFakeOllama({ models: [MODEL] });
    const { client: c } = await connect();
    const tools = await c.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual(["agent0", "agent0_reply"]);
    expect(c.getServerVersion()?.name).toBe("agent0");
  });

  it("runs a prompt whose edit the client approves through elicitation, with progress", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "hello\n");
    ollama = await startFakeOllama({ models: [MODEL], replies: [EDIT, { steps: [{ text: "Done: goodbye." }] }] });
    const { client: c, asked } = await connect({ elicit: () => ({ decision: "allow" }) });
    const progress: string[] = [];
    const result = await c.callTool({ name: "agent0", arguments: { prompt: "say goodbye in a.txt" } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ""),
    });
    const out = structured(result);
    expect(result.isError).toBeFalsy();
    expect(fs.readFileSync(path.join(sb.project, "a.txt"), "utf8")).toBe("goodbye\n");
    expect(asked).toHaveLength(1);
    // What is approved is shown whole: the diff is in the question.
    expect(asked[0]).toContain("-hello");
    expect(asked[0]).toContain("+goodbye");
    expect(out.answer).toBe("Done: goodbye.");
    expect(out.filesChanged).toEqual(["a.txt"]);
    expect(out.status).toBe("completed");
    expect(progress.some((p) => p.includes("a.txt"))).toBe(true);
    // Saved as usual, so `agent0 sessions` lists it.
    expect(sessionFiles(sb).map((f) => path.basename(f, ".jsonl"))).toContain(out.sessionId);
  });

  it("without elicitation, the edit is refused with a clear message", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "hello\n");
    ollama = await startFakeOllama({ models: [MODEL], replies: [EDIT, { steps: [{ text: "I could not edit it." }] }] });
    const { client: c } = await connect();
    const result = await c.callTool({ name: "agent0", arguments: { prompt: "say goodbye in a.txt" } });
    const out = structured(result);
    expect(fs.readFileSync(path.join(sb.project, "a.txt"), "utf8")).toBe("hello\n");
    expect(out.filesChanged).toEqual([]);
    expect(out.refused).toHaveLength(1);
    expect(out.refused[0]).toContain("edit_file");
    const text = (result as CallToolResult).content.map((c) => (c.type === "text" ? c.text : "")).join("");
    expect(text).toContain("cannot ask the user");
    // The model was told why, too.
    const toolMessage = ollama.chats[1]!.messages.find((m) => m.role === "tool")!;
    expect(toolMessage.content).toContain("cannot ask for permission");
    // Running without approvals needs a mode this server was started to allow.
    const yolo = await c.callTool({ name: "agent0", arguments: { prompt: "again", permission_mode: "yolo" } });
    expect(yolo.isError).toBe(true);
    expect(JSON.stringify(yolo.content)).toContain("not allowed by this server");
  });

  it("cancel stops the run, and the server goes on serving", async () => {
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "Thinking hard" }, { hang: true }] }, { steps: [{ text: "Fine." }] }],
    });
    const { client: c } = await connect();
    const ctl = new AbortController();
    const call = c.callTool({ name: "agent0", arguments: { prompt: "a long task" } }, undefined, {
      signal: ctl.signal,
    });
    await ollama.waitForChats(1);
    ctl.abort();
    await expect(call).rejects.toThrow();
    await ollama.waitForAbort();
    const next = await c.callTool({ name: "agent0", arguments: { prompt: "short one" } });
    expect(structured(next).answer).toBe("Fine.");
  });

  it("continues a session by id", async () => {
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "Remembered: 42." }] }, { steps: [{ text: "It was 42." }] }],
    });
    const { client: c } = await connect();
    const first = structured(await c.callTool({ name: "agent0", arguments: { prompt: "remember the number 42" } }));
    const second = structured(
      await c.callTool({ name: "agent0_reply", arguments: { session_id: first.sessionId, prompt: "which number?" } }),
    );
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.answer).toBe("It was 42.");
    const sent = ollama.chats[1]!.messages.map((m) => m.content);
    expect(sent).toContain("remember the number 42");
    expect(sent).toContain("Remembered: 42.");
    const unknown = await c.callTool({ name: "agent0_reply", arguments: { session_id: "nope", prompt: "hi" } });
    expect(unknown.isError).toBe(true);
  });

  it("refuses a cwd outside the folder it was started in", async () => {
    // The attack: a client points the agent at the folder above, where a canary file sits.
    const canary = path.join(path.dirname(sb.project), "canary.txt");
    fs.writeFileSync(canary, "untouched\n");
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "write_file", arguments: { path: "canary.txt", content: "pwned\n" } }] }] },
      ],
    });
    const { client: c } = await connect({ args: ["--yolo"] });
    const result = await c.callTool({
      name: "agent0",
      arguments: { prompt: "overwrite canary.txt", cwd: "..", permission_mode: "yolo" },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("outside");
    expect(ollama.chats).toHaveLength(0);
    expect(fs.readFileSync(canary, "utf8")).toBe("untouched\n");
  });
});
