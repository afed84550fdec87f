// `initialize` offers an auth method, as the ACP registry requires of every agent it lists
// (agentclientprotocol/registry, AUTHENTICATION.md: "at least one of Agent Auth or Terminal Auth";
// its CI runs `.github/workflows/client.py` against the agent and reads `authMethods`). agent0's
// is the "agent" kind: a local agent has no account, so `authenticate` with it succeeds and the
// session works; an id it did not offer is refused with the ids it did.
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, type Sandbox } from "./harness.js";
import { initialize, messageText, startAcp, type AcpRun } from "./acp-client.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

let sb: Sandbox;
let ollama: FakeOllama | undefined;
let run: AcpRun | undefined;
eachTest(
  (s) => (sb = s),
  () => [run, ollama],
);

describe("agent0 acp authentication", () => {
  it("offers a method that names the local setup, authenticates with it, and refuses another", async () => {
    ollama = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "Ready." }] }] });
    const r = (run = startAcp(sb, ["--host", ollama.url, "--model", MODEL.name]));
    const init = await initialize(r);
    expect(init.authMethods).toHaveLength(1);
    const method = init.authMethods![0]!;
    expect("type" in method ? method.type : "agent").toBe("agent");
    expect(method.description).toContain(`model ${MODEL.name}`);
    expect(method.description).toContain(ollama.url);

    await expect(r.agent.request(acp.methods.agent.authenticate, { methodId: method.id })).resolves.toEqual({});
    await expect(r.agent.request(acp.methods.agent.authenticate, { methodId: "oauth" })).rejects.toThrow(
      /unknown auth method "oauth".*agent0-local/,
    );

    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    const answer = await r.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "are you there?" }],
    });
    expect(answer.stopReason).toBe("end_turn");
    expect(messageText(r, sessionId)).toContain("Ready.");
  });
});
