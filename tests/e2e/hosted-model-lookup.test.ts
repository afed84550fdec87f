// One host for a session: the server is asked about the session's model once, whatever drives
// the session. The TUI keeps the `model-info` answer in its config and stamps later runs with it;
// an editor's (ACP) and an MCP client's (`mcp serve`) session keep it the same way
// (protocol/session-facts.ts), so a second prompt does not send /api/show again. (Ollama's own
// clients ask /api/show once per model too: ollama/ollama docs/api.md "Show Model Information".)
// Before, each prompt of a hosted session repeated the lookup.
import * as acp from "@agentclientprotocol/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { BIN, eachTest, type Sandbox } from "./harness.js";
import { initialize, startAcp, type AcpRun } from "./acp-client.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

let sb: Sandbox;
let ollama: FakeOllama | undefined;
let run: AcpRun | undefined;
let client: Client | undefined;
eachTest(
  (s) => (sb = s),
  () => [run, client, ollama],
);

const shows = (o: FakeOllama) => o.requests.filter((r) => r.path === "/api/show").length;
const chats = (o: FakeOllama) => o.requests.filter((r) => r.path === "/api/chat").length;

describe("a hosted session asks about its model once", () => {
  it("ACP: two prompts, one /api/show", async () => {
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "One." }] }, { steps: [{ text: "Two." }] }],
    });
    const r = (run = startAcp(sb, ["--host", ollama.url, "--model", MODEL.name]));
    await initialize(r);
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    for (const text of ["first", "second"])
      await r.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
    expect(chats(ollama)).toBeGreaterThanOrEqual(2);
    expect(shows(ollama)).toBe(1);
  });

  it("mcp serve: agent0 then agent0_reply, one /api/show", async () => {
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "One." }] }, { steps: [{ text: "Two." }] }],
    });
    const transport = new StdioClientTransport({
      command: "node",
      args: [BIN, "mcp", "serve", "--host", ollama.url, "--model", MODEL.name],
      cwd: sb.project,
      env: sb.env,
      stderr: "pipe",
    });
    client = new Client({ name: "test-agent", version: "1.0.0" }, { capabilities: {} });
    await client.connect(transport);
    const first = await client.callTool({ name: "agent0", arguments: { prompt: "first" } });
    const session = (first.structuredContent as { sessionId: string }).sessionId;
    await client.callTool({ name: "agent0_reply", arguments: { session_id: session, prompt: "second" } });
    expect(chats(ollama)).toBeGreaterThanOrEqual(2);
    expect(shows(ollama)).toBe(1);
  });
});
