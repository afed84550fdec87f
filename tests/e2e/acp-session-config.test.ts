// Issue 42, check 1, with the ACP SDK's own client: session config options as the spec defines them
// (agentclientprotocol.com/protocol/session-config-options: `configOptions` on session/new, a
// `select` per option with its `currentValue`, `session/set_config_option` answering the full set,
// `config_option_update` when they change), the session's title as a `session_info_update`
// (SessionInfoUpdate in the SDK's schema) and `session/delete` (sessionCapabilities.delete).
import fs from "node:fs";
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, sessionFiles, type Sandbox } from "./harness.js";
import { initialize, startAcp, updatesOf, type AcpRun } from "./acp-client.js";

const FIRST = { name: "qwen3:8b", contextLength: 40960 };
const SECOND = { name: "gemma3:4b", contextLength: 32768 };

let sb: Sandbox;
let ollama: FakeOllama | undefined;
let run: AcpRun | undefined;
eachTest(
  (s) => (sb = s),
  () => [run, ollama],
);

const select = (options: acp.SessionConfigOption[] | null | undefined, id: string) => {
  const o = options?.find((x) => x.id === id);
  if (!o || o.type !== "select") throw new Error(`no select option ${id}`);
  return { current: o.currentValue, values: (o.options as acp.SessionConfigSelectOption[]).map((v) => v.value) };
};

describe("agent0 acp: config options, titles, delete", () => {
  it("offers model, thinking and mode; a model change reaches the next request; the option's update comes back", async () => {
    ollama = await startFakeOllama({
      models: [FIRST, SECOND],
      replies: [{ steps: [{ text: "From the first." }] }, { steps: [{ text: "From the second." }] }],
    });
    const r = (run = startAcp(sb, ["--host", ollama.url, "--model", FIRST.name]));
    await initialize(r);
    const created = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    const { sessionId } = created;
    expect(select(created.configOptions, "model")).toEqual({ current: FIRST.name, values: [FIRST.name, SECOND.name] });
    expect(select(created.configOptions, "thinking").values).toEqual([
      "default",
      "off",
      "on",
      "low",
      "medium",
      "high",
      "max",
    ]);
    expect(select(created.configOptions, "mode")).toEqual({ current: "ask", values: ["ask", "auto-edit", "plan"] });
    expect(created.configOptions?.map((o) => o.category)).toEqual(["model", "thought_level", "mode"]);

    const prompt = (text: string) =>
      r.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
    await prompt("first question");
    expect(ollama.chats.at(-1)!.model).toBe(FIRST.name);

    const set = await r.agent.request(acp.methods.agent.session.setConfigOption, {
      sessionId,
      configId: "model",
      value: SECOND.name,
    });
    expect(select(set.configOptions, "model").current).toBe(SECOND.name);
    const thinking = await r.agent.request(acp.methods.agent.session.setConfigOption, {
      sessionId,
      configId: "thinking",
      value: "off",
    });
    expect(select(thinking.configOptions, "thinking").current).toBe("off");
    await prompt("second question");
    expect(ollama.chats.at(-1)!.model).toBe(SECOND.name);
    expect(ollama.chats.at(-1)!.think).toBe(false);
    const updates = updatesOf(r, sessionId, "config_option_update");
    expect(updates.map((u) => select(u.configOptions, "model").current)).toContain(SECOND.name);

    // The mode as an option is the mode: the modes API hears of it too.
    await r.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: "plan" });
    expect(updatesOf(r, sessionId, "current_mode_update").at(-1)?.currentModeId).toBe("plan");

    await expect(
      r.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: "nope:1b" }),
    ).rejects.toThrow(/"nope:1b" is not a value of model: one of qwen3:8b, gemma3:4b/);
  });

  it("titles a session by its first request, lists it so, and deletes it: gone from session/list and from disk", async () => {
    ollama = await startFakeOllama({ models: [FIRST], replies: [{ steps: [{ text: "Done." }] }] });
    const r = (run = startAcp(sb, ["--host", ollama.url, "--model", FIRST.name]));
    const init = await initialize(r);
    expect(init.agentCapabilities?.sessionCapabilities?.delete).toEqual({});
    const { sessionId } = await r.agent.request(acp.methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    const long = `Rename the parser module and update every import ${"of it ".repeat(20)}`;
    await r.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: long }] });
    const info = updatesOf(r, sessionId, "session_info_update");
    expect(info).toHaveLength(1);
    expect(info[0]!.title).toMatch(/^Rename the parser module and update every import of it/);
    expect(info[0]!.title!.endsWith("…")).toBe(true);
    expect(info[0]!.title!.length).toBeLessThanOrEqual(80);

    const listed = await r.agent.request(acp.methods.agent.session.list, { cwd: sb.project });
    expect(listed.sessions.map((s) => [s.sessionId, s.title])).toEqual([[sessionId, info[0]!.title]]);
    expect(sessionFiles(sb)).toHaveLength(1);

    await r.agent.request(acp.methods.agent.session.delete, { sessionId });
    const after = await r.agent.request(acp.methods.agent.session.list, { cwd: sb.project });
    expect(after.sessions).toEqual([]);
    expect(sessionFiles(sb)).toEqual([]);
    // Its /undo checkpoints and lock go with it.
    const dir = path.join(sb.env.XDG_DATA_HOME!, "agent0", "sessions");
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(sessionId))).toEqual([]);
    // An unknown id is "resource not found" on the wire, which the SDK's client takes as done (idempotent).
    await r.agent.request(acp.methods.agent.session.delete, { sessionId: "no-such-session" });
    expect(r.lines.some((l) => l.includes('"code":-32002') && l.includes("no-such-session"))).toBe(true);
  });
});
