// No server answers (Ollama's default address closed, nothing found on loopback): `-p` says what
// agent0 could run itself and never downloads without `--yes`; with `--yes` it downloads the model
// (from a fake of the Hugging Face file endpoints, tests/fakes/hf-server.ts) and answers with the real
// engine (tests/engine/engine-dir.ts) on the tests' tiny GGUF, served under every catalogue file's name.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/providers/embedded/catalogue.js";
import { startFakeHub, type FakeHub } from "../fakes/hf-server.js";
import { writeTinyGguf } from "../fakes/tiny-gguf.js";
import { eachTest, runHeadless, type Sandbox } from "./harness.js";
import { engineEnv } from "./engine-env.js";

describe("no server: the engine offer in -p", () => {
  let sb: Sandbox;
  let hub: FakeHub | undefined;
  eachTest(
    (s) => (sb = s),
    () => [hub],
  );

  async function setUp(): Promise<Buffer> {
    const file = path.join(sb.home, "tiny.gguf");
    // A template that renders tools: the engine's function calling, where the random model's text is
    // an answer (tests/e2e/embedded-one-shot.test.ts).
    writeTinyGguf(file, { toolsTemplate: true });
    const bytes = fs.readFileSync(file);
    hub = await startFakeHub(CATALOGUE.map((e) => ({ repo: e.repo, name: e.file, bytes })));
    Object.assign(sb.env, {
      HF_ENDPOINT: hub.url,
      ...engineEnv(),
      // Ollama's default address is closed on test machines; the look-around finds nothing on port 9.
      AGENT0_DISCOVERY_PORTS: "9",
    });
    return bytes;
  }
  const modelsDir = () => path.join(sb.home, ".local", "share", "agent0", "models");

  it("names the model, its size and where it goes, says how to get it, and fetches nothing", async () => {
    await setUp();
    const r = await runHeadless(sb, ["-p", "hi"], 60_000);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("error: Cannot reach Ollama");
    expect(r.stderr).toContain("No server answers. agent0 can run the model itself:");
    expect(r.stderr).toMatch(/qwen[\w.:-]+ — [\d.]+ [MG]B/);
    expect(r.stderr).toContain(`into ${modelsDir()}`);
    expect(r.stderr).toContain("add --yes to take it and run the prompt there (agent0 -p … --yes)");
    expect(r.stderr).toMatch(/or run agent0 models pull qwen[\w.:-]+, then: agent0 --provider embedded --model qwen/);
    expect(hub!.requests).toEqual([]);
    expect(fs.existsSync(modelsDir())).toBe(false);
  }, 120_000);

  it("with --yes downloads the model (progress on stderr), checks it, and answers the prompt with it", async () => {
    const bytes = await setUp();
    const r = await runHeadless(sb, ["-p", "hi", "--yes"], 300_000);
    expect(r.stderr).not.toContain("error:");
    expect(r.stderr).toContain("Cannot reach Ollama");
    expect(r.stderr).toContain("No server answers. agent0 can run the model itself:");
    expect(r.stderr).toMatch(/Downloading [\w.-]+\.gguf \([\d.]+ KB\)…/);
    expect(r.stderr).toMatch(/\[█+░*\] .* of .* · .*\/s · /);
    expect(r.stderr).toMatch(/Checking qwen[\w.:-]+'s sha256…/);
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout.trim()).not.toBe("");
    const downloaded = fs
      .readdirSync(modelsDir(), { recursive: true, encoding: "utf8" })
      .filter((n) => n.endsWith(".gguf"));
    expect(downloaded).toHaveLength(1);
    expect(fs.readFileSync(path.join(modelsDir(), downloaded[0]!)).equals(bytes)).toBe(true);
  }, 600_000);
});
