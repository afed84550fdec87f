// `agent0 acp` spawned against the fake Ollama and driven by the ACP SDK's own client side: the
// cases of issue 30's checks (an approved edit with its diff, cancel, session/load, a plan, two
// sessions in different modes, reads through the editor, bad input), and a clean stdout.
import fs from "node:fs";
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, type Sandbox } from "./harness.js";
import { initialize, messageText, startAcp, updatesOf, type AcpRun } from "./acp-client.js";

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
});
