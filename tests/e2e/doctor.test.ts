// Issue 39, part 3: `agent0 doctor` says what holds here (/doctor in the TUI: doctor-tui.test.ts;
// a missing protection said once per machine at the TUI's start: doctor-pid-notice.test.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/providers/embedded/catalogue.js";
import { ENGINE_VERSION, platformBuild } from "../../src/providers/embedded/engine.js";
import { modelFilePath } from "../../src/providers/embedded/models-store.js";
import { ensureTestEngine } from "../engine/engine-dir.js";
import type { FakeOllama } from "../fakes/ollama-server.js";
import { writeTinyGguf } from "../fakes/tiny-gguf.js";
import { closedPort } from "../fakes/ports.js";
import { MODEL, withServer } from "./doctor-setup.js";
import { eachTest, hideFromPath, runHeadless, userConfigFile, writeJson, type Sandbox } from "./harness.js";

describe("agent0 doctor", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  it("on this machine: every check holds, with the server, the model and its window; exit 0", async () => {
    fake = await withServer(sb);
    const r = await runHeadless(sb, ["doctor"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`✓ server: Ollama`);
    expect(r.stdout).toContain(`✓ model: ${MODEL}, window 40,960 tokens`);
    expect(r.stdout).toContain("✓ pid namespace per command");
    expect(r.stdout).toContain("✓ ripgrep");
    expect(r.stdout).toContain("agent0 can run here.");
    expect(r.stdout.split("\n").filter((l) => l.startsWith("✗"))).toEqual([]);
  });

  it("with bubblewrap hidden: the sandbox and the pid namespace are ✗ with their cost and fix; agent0 still runs", async () => {
    fake = await withServer(sb);
    hideFromPath(sb, ["bwrap"]);
    const r = await runHeadless(sb, ["doctor"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✗ sandbox \(bubblewrap, user namespaces\): bubblewrap \(bwrap\) is not installed/);
    expect(r.stdout).toMatch(
      /✗ pid namespace per command: .*\n {4}costs: .*env -i.*\n {4}fix: sudo apt-get install bubblewrap/,
    );
    expect(r.stdout).toContain("agent0 can run here.");
  });

  it("no server and no engine: exit 1, saying what to start", async () => {
    sb.env.OLLAMA_HOST = `http://127.0.0.1:${await closedPort()}`;
    const r = await runHeadless(sb, ["doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("✗ server: Ollama does not answer");
    expect(r.stdout).toContain("fix: start Ollama (ollama serve)");
    expect(r.stdout).toContain("The default path cannot work here: server.");
    // Nothing of the engine yet: said as a fact, with the command that brings it and where it goes.
    const data = path.join(sb.env.XDG_DATA_HOME!, "agent0");
    expect(r.stdout).toContain(
      `· embedded engine: not installed: to run models without a server, agent0 engine install (about 80 MB into ${path.join(data, "engine")})`,
    );
    expect(r.stdout).toMatch(
      /· embedded models: none downloaded: agent0 models pull qwen[\w.:-]+ \(fits this machine\)/,
    );
    expect(r.stdout).not.toContain("none in this build");
  });

  it("the engine installed and a model downloaded: its version, build and folder; the model by name", async () => {
    const engine = await ensureTestEngine();
    sb.env.AGENT0_ENGINE_DIR = engine;
    const entry = CATALOGUE[0]!;
    const data = path.join(sb.env.XDG_DATA_HOME!, "agent0");
    const file = modelFilePath(data, entry.repo, entry.file);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeTinyGguf(file);
    const r = await runHeadless(sb, ["--provider", "embedded", "--model", entry.name, "doctor"]);
    expect(r.stdout).toContain(`✓ embedded engine: node-llama-cpp ${ENGINE_VERSION}, ${platformBuild()}, in ${engine}`);
    expect(r.stdout).toContain(`✓ model: ${entry.name} at ${file}`);
    expect(r.stdout).toMatch(new RegExp(`· embedded models: ${entry.name.replace(/[.]/g, "\\.")} \\(\\d+ KB\\) — in `));
    // The engine is the server: Ollama is not asked about.
    expect(r.stdout).not.toContain("server: Ollama");
    expect(r.code).toBe(0);
  }, 120_000);

  it("--provider embedded with no engine and the model not downloaded: exit 1, the commands to run", async () => {
    sb.env.OLLAMA_HOST = `http://127.0.0.1:${await closedPort()}`;
    const entry = CATALOGUE[0]!;
    const r = await runHeadless(sb, ["--provider", "embedded", "--model", entry.name, "doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /✗ embedded engine: not installed \(.*\)\n {4}costs: no model can answer\n {4}fix: agent0 engine install/,
    );
    expect(r.stdout).toMatch(
      new RegExp(
        `✗ model: ${entry.name.replace(/[.]/g, "\\.")} is not downloaded yet.*\\n {4}costs: .*\\n {4}fix: agent0 models pull ${entry.name.replace(/[.]/g, "\\.")}`,
      ),
    );
    expect(r.stdout).toContain("The default path cannot work here: embedded engine, model.");
  });

  it("a config that does not parse: exit 1, naming the file", async () => {
    fake = await withServer(sb);
    fs.writeFileSync(userConfigFile(sb), '{ "model": "qwen3:8b", }');
    const r = await runHeadless(sb, ["doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ config: .*config\.json: not valid JSON/);
  });

  it("checks the server and model the launch's flags and environment name, not only the config's", async () => {
    fake = await withServer(sb);
    // The config names a model the server lacks; --host and AGENT_MODEL name the real ones.
    writeJson(userConfigFile(sb), { model: "absent:1b", host: `http://127.0.0.1:${await closedPort()}` });
    delete sb.env.OLLAMA_HOST;
    sb.env.AGENT_MODEL = MODEL;
    const r = await runHeadless(sb, ["--host", fake!.url, "doctor"]);
    expect(r.stdout).toContain(`✓ server: Ollama`);
    expect(r.stdout).toContain(`at ${fake!.url}`);
    expect(r.stdout).toContain(`✓ model: ${MODEL}, window 40,960 tokens`);
    expect(r.code).toBe(0);
  });

  it("a flag agent0 would refuse to start with: ✗ naming it, exit 1", async () => {
    fake = await withServer(sb);
    const r = await runHeadless(sb, ["--num-ctx-cap", "0", "doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("✗ server: --num-ctx-cap must be a whole number");
  });
});
