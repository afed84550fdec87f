// The first screen when no server answers (Ollama's default address closed, nothing on loopback): the
// offer names the model for this machine's memory, its size and where it goes. Esc leaves the error as
// it was and fetches nothing; Enter downloads the model (a fake of the Hugging Face file endpoints,
// tests/fakes/hf-server.ts, serving the tests' tiny GGUF under every catalogue file's name), and the
// session then uses the engine and that model.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/providers/embedded/catalogue.js";
import { startFakeHub, type FakeHub } from "../fakes/hf-server.js";
import { writeTinyGguf } from "../fakes/tiny-gguf.js";
import { eachTest, Tui, waitUntil, type Sandbox } from "./harness.js";
import { engineEnv } from "./engine-env.js";

describe("no server: the engine offer on the first screen", () => {
  let sb: Sandbox;
  let hub: FakeHub | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, hub],
  );

  async function open(): Promise<Tui> {
    const file = path.join(sb.home, "tiny.gguf");
    writeTinyGguf(file);
    const bytes = fs.readFileSync(file);
    hub = await startFakeHub(CATALOGUE.map((e) => ({ repo: e.repo, name: e.file, bytes })));
    Object.assign(sb.env, {
      HF_ENDPOINT: hub.url,
      ...engineEnv(),
      AGENT0_DISCOVERY_PORTS: "9",
    });
    tui = await Tui.open(sb, [], { width: 120 });
    await tui.waitFor("Run a model in agent0?", 30_000);
    return tui;
  }
  const modelsDir = () => path.join(sb.home, ".local", "share", "agent0", "models");

  it("offers the model, its size and where it goes; Esc keeps the error and fetches nothing", async () => {
    const t = await open();
    const screen = t.screen();
    expect(screen).toContain("Cannot reach Ollama");
    expect(screen).toMatch(/qwen[\w.:-]+ — [\d.]+ [MG]B/);
    expect(screen).toContain("into " + modelsDir().slice(0, 40));
    t.press("Escape");
    await waitUntil(() => !t.screen().includes("Run a model in agent0?"), 10_000, "the offer to close");
    expect(t.screen()).toContain("Cannot reach Ollama");
    expect(hub!.requests).toEqual([]);
    expect(fs.existsSync(modelsDir())).toBe(false);
  }, 120_000);

  it("Enter downloads the model and the session runs it: the session moves to it", async () => {
    const t = await open();
    t.press("Enter");
    await t.waitFor(/Model: qwen[\w.:-]+ \(used from the next request\)/, 120_000);
    const downloaded = fs
      .readdirSync(modelsDir(), { recursive: true, encoding: "utf8" })
      .filter((n) => n.endsWith(".gguf"));
    expect(downloaded).toHaveLength(1);
  }, 300_000);
});
