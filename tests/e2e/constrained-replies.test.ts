// Issue 38 end to end: the built app, headless, against the fake Ollama over real HTTP.
// - a model without native tools: every request's `format` holds the protocol's schema; an
//   Ollama older than structured outputs refuses it (400) and the run completes without it;
// - a call written at the end of the thinking (ollama/ollama#10976): one corrective under the
//   call schema, and its call runs;
// - a fenced Python block calling a tool-named function is never run as a call.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { runHeadless, type Sandbox, eachTest } from "./harness.js";

const CANARY = "canary-38-e2e";
const protocolCall = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ thoughts: ["need it"], tool_name: name, tool_args: args });

function offered(schema: unknown): string[] {
  const s = schema as { anyOf?: { properties: { tool_name: { const: string } } }[] } | undefined;
  return (s?.anyOf ?? []).map((b) => b.properties.tool_name.const);
}

describe("replies that cannot be malformed", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );
  const run = (model: string) =>
    runHeadless(sb, ["-p", "what does a.txt say?", "--host", fake!.url, "--model", model, "--yolo"]);

  it("a model without native tools: format holds every tool and the answer; the call runs", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), `${CANARY}\n`);
    fake = await startFakeOllama({
      models: [{ name: "small:1b", capabilities: ["completion"] }],
      replies: [
        { steps: [{ text: protocolCall("read_file", { path: "a.txt" }) }] },
        { steps: [{ text: protocolCall("response", { text: "It says the canary." }) }] },
      ],
    });
    const r = await run("small:1b");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("It says the canary.");
    for (const chat of fake.chats) {
      expect(offered(chat.body.format)).toEqual(expect.arrayContaining(["read_file", "grep_files", "response"]));
    }
    expect(JSON.stringify(fake.chats[1]!.messages)).toContain(CANARY);
  }, 60_000);

  it("an Ollama older than structured outputs (0.4.7): known from /api/version, never sent a schema; one notice", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), `${CANARY}\n`);
    fake = await startFakeOllama({
      version: "0.4.7",
      models: [{ name: "small:1b", capabilities: ["completion"] }],
      replies: [
        { steps: [{ text: protocolCall("read_file", { path: "a.txt" }) }] },
        { steps: [{ text: protocolCall("response", { text: "Done without a grammar." }) }] },
      ],
    });
    const r = await run("small:1b");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Done without a grammar.");
    expect(r.stderr.match(/only from 0\.5\.0/g)).toHaveLength(1);
    // Not one request carried `format`, so none was refused.
    const sent = fake.requests.filter(
      (q) => q.path === "/api/chat" && (q.body as { messages?: unknown[] }).messages?.length,
    );
    expect(sent.length).toBe(2);
    expect(sent.filter((q) => (q.body as { format?: unknown }).format !== undefined)).toEqual([]);
  }, 60_000);

  it("a call at the end of the thinking: one corrective under the call schema, and its call runs", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), `${CANARY}\n`);
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b", capabilities: ["completion", "tools", "thinking"] }],
      replies: [
        {
          steps: [
            {
              thinking: 'The user wants a.txt. I will read it.\n{"name": "read_file", "arguments": {"path": "a.txt"}}',
            },
          ],
        },
        { steps: [{ text: protocolCall("read_file", { path: "a.txt" }) }] },
        { steps: [{ text: "It holds the canary." }] },
      ],
    });
    const r = await run("qwen3:8b");
    expect(r.code).toBe(0);
    expect(fake.chats).toHaveLength(3);
    expect(fake.chats[0]!.body.format).toBeUndefined();
    expect(offered(fake.chats[1]!.body.format)).toContain("read_file");
    expect(offered(fake.chats[1]!.body.format)).not.toContain("response");
    expect(JSON.stringify(fake.chats[1]!.messages)).toContain("inside your reasoning");
    expect(fake.chats[2]!.body.format).toBeUndefined();
    expect(JSON.stringify(fake.chats[2]!.messages)).toContain(CANARY);
    expect(r.stdout).toContain("It holds the canary.");
  }, 60_000);

  it("a fenced Python block calling a tool-named function is an answer, never a call", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), `${CANARY}\n`);
    const answer = 'You can check it yourself:\n\n```python\nprint(read_file("a.txt"))\n```\n';
    fake = await startFakeOllama({
      models: [{ name: "coder:7b", capabilities: ["completion", "tools"] }],
      replies: [{ steps: [{ text: answer }] }, { steps: [{ text: "should never be asked" }] }],
    });
    const r = await run("coder:7b");
    expect(r.code).toBe(0);
    expect(fake.chats).toHaveLength(1);
    expect(r.stdout).toContain('print(read_file("a.txt"))');
    expect(r.stdout).not.toContain(CANARY);
  }, 60_000);
});
