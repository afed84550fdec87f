// `agent0 setup` (issue 42, part 1): the first-run choice of where the model runs and which model,
// saved to the config; and the same setup as ACP's "terminal" auth method, which an editor runs by
// appending the method's `args` to agent0's own command (the SDK's AuthMethodTerminal: "Additional
// arguments to append to the configured agent invocation"; "a zero exit status signals success";
// offered only when the client sets clientCapabilities.auth.terminal). The answers are typed into
// the program's stdin, a line each, as a person types them in the editor's terminal.
import fs from "node:fs";
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { closedPort } from "../fakes/ports.js";
import { eachTest, runHeadless, Tui, userConfigFile, type Sandbox } from "./harness.js";
import { initialize, startAcp, type AcpRun } from "./acp-client.js";

const QWEN = { name: "qwen3:8b", contextLength: 40960 };
const GEMMA = { name: "gemma3:4b", contextLength: 32768 };

let sb: Sandbox;
let ollama: FakeOllama | undefined;
let run: AcpRun | undefined;
let tui: Tui | undefined;
eachTest(
  (s) => (sb = s),
  () => [run, tui, ollama],
);

/** The fake Ollama where agent0 looks for it, and no other server probed on this machine's ports. */
async function machine(): Promise<FakeOllama> {
  ollama = await startFakeOllama({ models: [QWEN, GEMMA], replies: [{ steps: [{ text: "Hello." }] }] });
  sb.env.OLLAMA_HOST = ollama.url;
  sb.env.AGENT0_DISCOVERY_PORTS = String(await closedPort());
  return ollama;
}

const saved = () => JSON.parse(fs.readFileSync(userConfigFile(sb), "utf8")) as Record<string, unknown>;

describe("agent0 setup", () => {
  it("lists what answers on this machine, takes a server and a model, and saves them beside the config's other keys", async () => {
    const fake = await machine();
    fs.writeFileSync(userConfigFile(sb), JSON.stringify({ theme: "light" }));
    const r = await runHeadless(sb, ["setup"], 20_000, "1\n2\n");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`1) Ollama at ${fake.url} — 2 models`);
    expect(r.stdout).toContain("The built-in engine (llama.cpp) with a .gguf file");
    expect(r.stdout).toMatch(/1\) qwen3:8b\s+2\) gemma3:4b/);
    expect(r.stdout).toContain(`Saved: Ollama at ${fake.url}, model gemma3:4b.`);
    expect(saved()).toEqual({ theme: "light", provider: "ollama", host: fake.url, model: "gemma3:4b" });

    // The next run talks to what was chosen.
    const next = await runHeadless(sb, ["-p", "hi"]);
    expect(next.stdout).toContain("Hello.");
    expect(fake.chats.at(-1)!.model).toBe("gemma3:4b");
  });

  it("asks again on a wrong answer; the built-in engine takes a .gguf path", async () => {
    await machine();
    const gguf = path.join(sb.project, "tiny.gguf");
    fs.writeFileSync(gguf, "GGUF");
    // 1 Ollama, 2 the engine, 3 another address.
    const r = await runHeadless(sb, ["setup"], 20_000, "7\n2\nmissing.gguf\ntiny.gguf\n");
    expect(r.stdout).toContain('"7" is not one of 1-3.');
    expect(r.stdout).toContain(`${path.join(sb.project, "missing.gguf")} is not a .gguf file.`);
    expect(r.stdout).toContain("The engine is not installed yet: run `agent0 engine install`");
    expect(r.code).toBe(0);
    expect(saved()).toEqual({ provider: "embedded", model: gguf });
  });

  it("reaches a server at a typed address, telling Ollama from an OpenAI-compatible one", async () => {
    const fake = await machine();
    sb.env.OLLAMA_HOST = `http://127.0.0.1:${await closedPort()}`;
    const r = await runHeadless(sb, ["setup"], 20_000, `2\n${fake.url}\n1\n`);
    expect(r.stdout).not.toContain(") Ollama at"); // the configured one does not answer: not offered
    expect(r.code).toBe(0);
    expect(saved()).toMatchObject({ provider: "ollama", host: fake.url, model: "qwen3:8b" });
  });

  it("saves nothing when the input ends early, and never overwrites a config file it cannot read", async () => {
    await machine();
    const stopped = await runHeadless(sb, ["setup"], 20_000, "1\n");
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toContain("Nothing saved.");
    expect(fs.existsSync(userConfigFile(sb))).toBe(false);

    const mine = '{ "model": "qwen3:8b", // my note\n}';
    fs.writeFileSync(userConfigFile(sb), mine);
    const refused = await runHeadless(sb, ["setup"], 20_000, "1\n1\n");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("not valid JSON");
    expect(refused.stdout).toContain("setup will not overwrite it");
    expect(fs.readFileSync(userConfigFile(sb), "utf8")).toBe(mine);
  });
});

describe("ACP's terminal auth method runs the setup", () => {
  it("in a real terminal, as an editor opens it: `agent0 acp --setup`, two answers, exit 0", async () => {
    const fake = await machine();
    tui = new Tui(sb, ["acp", "--setup"]);
    await tui.waitFor("Where [1-3, Enter for 1]:");
    tui.send("1");
    const models = await tui.waitFor("Model [1-2, Enter for 1]:");
    expect(models).toContain("2) gemma3:4b");
    tui.send("2");
    const done = await tui.waitFor("[exit 0]");
    expect(done).toContain(`Saved: Ollama at ${fake.url}, model gemma3:4b.`);
    expect(saved()).toMatchObject({ provider: "ollama", host: fake.url, model: "gemma3:4b" });
  });

  it("offers it to a client that runs terminal auth; running it saves the choice; the agent then reports it done", async () => {
    const fake = await machine();
    let r = (run = startAcp(sb, []));
    const plain = await initialize(r);
    expect(plain.authMethods?.map((m) => ("type" in m ? m.type : "agent"))).toEqual(["agent"]);
    r.kill();
    r = run = startAcp(sb, []);
    const init = await initialize(r, { auth: { terminal: true } });
    const terminal = init.authMethods?.find((m) => "type" in m && m.type === "terminal");
    expect(terminal).toMatchObject({ id: "agent0-setup", name: "Set up agent0", args: ["--setup"] });
    expect(terminal!.description).toContain("Not set up yet");
    await expect(r.agent.request(acp.methods.agent.authenticate, { methodId: "agent0-setup" })).rejects.toThrow(
      /runs in a terminal/,
    );
    r.kill();

    // The editor runs the agent's command with the method's args appended: `agent0 acp --setup`.
    const args = "args" in terminal! ? terminal.args! : [];
    const setup = await runHeadless(sb, ["acp", ...args], 20_000, "1\n2\n");
    expect(setup.code).toBe(0);
    expect(saved()).toMatchObject({ provider: "ollama", model: "gemma3:4b" });

    r = run = startAcp(sb, []);
    const after = await initialize(r, { auth: { terminal: true } });
    expect(after.authMethods![0]!.description).toContain(`Set up: Ollama at ${fake.url}, model gemma3:4b.`);
    expect(after.authMethods![1]!.name).toBe("Change the model server or model");
  });
});
