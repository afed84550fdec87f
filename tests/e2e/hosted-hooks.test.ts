// Check 3 of one host for a session: hooks in an editor's (ACP), an MCP client's (`mcp serve`) and
// a script's (`-p`) sessions, all driven through cli/hosted-session.ts, get a real `transcript_path`,
// the session's own file, as the TUI's hooks do (Claude Code's common hook input:
// docs.anthropic.com/en/docs/claude-code/hooks#hook-input). The hook reads the file it is given;
// before, ACP's and `mcp serve`'s were handed "".
import fs from "node:fs";
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { BIN, eachTest, runHeadless, userConfigFile, writeJson, type Sandbox } from "./harness.js";
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

/** A UserPromptSubmit hook that copies what it finds at transcript_path into seen.json. */
function readingHook(): string {
  const seen = path.join(sb.home, "seen.json");
  const script = path.join(sb.home, "read-transcript.cjs");
  fs.writeFileSync(
    script,
    `const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
let text = null;
try { text = require("fs").readFileSync(input.transcript_path, "utf8"); } catch {}
require("fs").writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ path: input.transcript_path, text }));`,
  );
  writeJson(userConfigFile(sb), {
    hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `node ${script}` }] }] },
  });
  return seen;
}

function expectRealTranscript(seen: string, prompt: string) {
  const got = JSON.parse(fs.readFileSync(seen, "utf8")) as { path: string; text: string | null };
  expect(got.path).toMatch(/\.jsonl$/);
  expect(got.text).toContain(prompt);
}

describe("hooks of a hosted session", () => {
  it("ACP: transcript_path is the session's file, holding the prompt", async () => {
    const seen = readingHook();
    ollama = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "Hi." }] }] });
    const r = (run = startAcp(sb, ["--host", ollama.url, "--model", MODEL.name]));
    await initialize(r);
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hello from the editor" }],
    });
    expectRealTranscript(seen, "hello from the editor");
  });

  it("mcp serve: transcript_path is the session's file, holding the prompt", async () => {
    const seen = readingHook();
    ollama = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "Hi." }] }] });
    const transport = new StdioClientTransport({
      command: "node",
      args: [BIN, "mcp", "serve", "--host", ollama.url, "--model", MODEL.name],
      cwd: sb.project,
      env: sb.env,
      stderr: "pipe",
    });
    client = new Client({ name: "test-agent", version: "1.0.0" }, { capabilities: {} });
    await client.connect(transport);
    await client.callTool({ name: "agent0", arguments: { prompt: "hello from a client" } });
    expectRealTranscript(seen, "hello from a client");
  });

  it("-p (the same host): transcript_path is the session's file, holding the prompt", async () => {
    const seen = readingHook();
    ollama = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "Hi." }] }] });
    const r = await runHeadless(sb, ["-p", "hello from a script", "--host", ollama.url, "--model", MODEL.name]);
    expect(r.code).toBe(0);
    expectRealTranscript(seen, "hello from a script");
  });
});
