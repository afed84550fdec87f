import { describe, expect, it } from "vitest";
import { chooseToolProtocol, recoversTextCalls, toolProtocolLabel } from "../../src/protocol/tool-protocol.js";
import { runAgent } from "../../src/agent/loop.js";
import { coreTools } from "../../src/tools/catalog.js";
import { scriptedProvider } from "./scripted-provider.js";
import { project, testConfig } from "../tools/ctx.js";
import { createSessionMemory } from "../../src/tools/session-memory.js";
import type { RunEvent } from "../../src/protocol/agent-event.js";

describe("the tool protocol follows the model", () => {
  it.each([
    ["ollama", ["completion", "tools"], "native + text recovery"],
    ["ollama", ["completion"], "JSON reply protocol"],
    ["ollama", [], "native + text recovery"],
    ["openai", [], "native + text recovery"],
    ["anthropic", [], "native"],
  ] as const)("%s with %j: %s", (provider, caps, label) => {
    expect(toolProtocolLabel(provider, chooseToolProtocol(caps))).toBe(label);
  });

  it("never recovers calls from text under the JSON protocol or from Anthropic", () => {
    expect(recoversTextCalls("ollama", "json")).toBe(false);
    expect(recoversTextCalls("anthropic", "native")).toBe(false);
  });

  it("switches a session to the JSON protocol after two unreadable native calls, for its later runs too", async () => {
    const dir = project({ "a.txt": "alpha\n" });
    const broken = { text: '<tool_call>{"name": "read_file", "arguments": {</tool_call>' };
    const config = { ...testConfig(dir), sessionId: "s-switch", permissionMode: "yolo" as const };
    const notices: string[] = [];
    const switches: string[] = [];
    // The session's memory: what its runs learnt of the model outlives each run.
    const memory = createSessionMemory("s-switch");
    const deps = (replies: Parameters<typeof scriptedProvider>[0]) => ({
      provider: scriptedProvider(replies),
      tools: coreTools,
      memory,
      emit: (e: RunEvent) => {
        if (e.type === "notice") notices.push(e.text);
        if (e.type === "tool-protocol") switches.push(e.protocol);
      },
      signal: new AbortController().signal,
      askUser: async () => ({ decision: "deny" as const }),
    });
    const first = await runAgent([{ role: "user", content: "go" }], { ...config }, deps([broken, broken]));
    expect(first.reason).toBe("stuck");
    expect(notices).toContain(
      "test-model failed to write a usable tool call twice; switching this session to the JSON reply protocol.",
    );
    // The UI is told, so a restarted worker does not try native again either.
    expect(switches).toEqual(["json"]);
    // The UI's copy of the config still says native: the next run of the session uses JSON anyway.
    const d = deps([{ text: '{"thoughts": [], "tool_name": "response", "tool_args": {"text": "ok"}}' }]);
    const second = await runAgent([{ role: "user", content: "again" }], { ...config }, d);
    expect(second.answer).toBe("ok");
    expect(d.provider.requests[0]!.tools).toEqual([]);
  });
});
