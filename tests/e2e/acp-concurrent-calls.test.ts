// Check 2 of the call pipeline: two concurrent calls of the same tool in an editor (ACP) each get
// a permission request naming its own call (session/request_permission's toolCall.toolCallId,
// agentclientprotocol.com/protocol/tool-calls#requesting-permission), and answering the second
// first runs the second. Before, a request was matched to the first open call of that tool's name.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, userConfigFile, waitUntil, type Sandbox } from "./harness.js";
import { initialize, startAcp, updatesOf, type AcpRun } from "./acp-client.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

let sb: Sandbox;
let ollama: FakeOllama | undefined;
let run: AcpRun | undefined;
let web: http.Server | undefined;
eachTest(
  (s) => (sb = s),
  () => [run, ollama, { kill: () => web?.close() }],
);

describe("agent0 acp: concurrent calls of one tool", () => {
  it("each permission request names its own call; answering the second first runs the second", async () => {
    // web_fetch is concurrent-safe and asks per call: both calls wait for the editor at once.
    web = http.createServer((req, res) => res.end(`page ${req.url}`));
    await new Promise<void>((resolve) => web!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    fs.writeFileSync(userConfigFile(sb), JSON.stringify({ webFetch: { allowPrivate: true } }));
    ollama = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [
            {
              toolCalls: [
                { name: "web_fetch", arguments: { url: `${base}/first` } },
                { name: "web_fetch", arguments: { url: `${base}/second` } },
              ],
            },
          ],
        },
        { steps: [{ text: "Read them." }] },
      ],
    });
    const pending: { req: acp.RequestPermissionRequest; answer: (r: acp.RequestPermissionResponse) => void }[] = [];
    const r = (run = startAcp(sb, ["--host", ollama.url, "--model", MODEL.name], {
      permission: (req) => new Promise((answer) => pending.push({ req, answer })),
    }));
    await initialize(r);
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    const prompt = r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "read both pages" }],
    });
    await waitUntil(() => pending.length === 2, 10_000, "both permission requests");
    const calls = updatesOf(r, sessionId, "tool_call");
    const idOf = (url: string) => calls.find((c) => (c.rawInput as { url?: string }).url === url)!.toolCallId;
    const [first, second] = [idOf(`${base}/first`), idOf(`${base}/second`)];
    expect(first).not.toBe(second);
    const byCall = new Map(pending.map((p) => [p.req.toolCall.toolCallId, p]));
    expect([...byCall.keys()].sort()).toEqual([first, second].sort());

    // The second is allowed first; the first is rejected afterwards.
    byCall.get(second)!.answer({ outcome: { outcome: "selected", optionId: "once" } });
    const status = (id: string) =>
      updatesOf(r, sessionId, "tool_call_update").find((u) => u.toolCallId === id && u.status)?.status;
    await waitUntil(() => status(second) === "completed", 10_000, "the second call to run");
    expect(status(first)).toBeUndefined();
    byCall.get(first)!.answer({ outcome: { outcome: "selected", optionId: "deny" } });
    expect((await prompt).stopReason).toBe("end_turn");
    expect(status(first)).toBe("failed");
    const results = ollama.chats.at(-1)!.messages.filter((m) => m.role === "tool");
    expect(results.map((m) => m.content.includes("page /second"))).toEqual([false, true]);
  });
});
