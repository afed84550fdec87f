import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { closedPort } from "../fakes/ports.js";
import { runHeadless, Tui, type Sandbox, eachTest } from "./harness.js";

describe("errors a user can act on", () => {
  let sb: Sandbox;
  let tui: Tui | undefined;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("with the server down, the TUI names the host and `ollama serve`, and stays usable", async () => {
    const host = `http://127.0.0.1:${await closedPort()}`;
    tui = new Tui(sb, ["--host", host, "--model", "qwen3:8b"]);
    const screen = await tui.waitFor("ollama serve");
    expect(screen).toContain(`Cannot reach Ollama at ${host}`);
    tui.type("hello?");
    tui.press("Enter");
    await tui.waitFor(/hello\?[\s\S]*Cannot reach Ollama/);
    tui.press("C-d");
    await tui.waitFor("[exit 0]");
  });

  it("headless with the server down exits 1, saying the same on stderr", async () => {
    const host = `http://127.0.0.1:${await closedPort()}`;
    const r = await runHeadless(sb, ["-p", "hi", "--host", host, "--model", "qwen3:8b"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Cannot reach Ollama at ${host}`);
    expect(r.stderr).toContain("ollama serve");
    expect(r.stdout).toBe("");
  });

  it("an unknown model says `ollama pull <model>`", async () => {
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b" }] });
    tui = new Tui(sb, ["--host", fake.url, "--model", "nosuchmodel:7b"]);
    const screen = await tui.waitFor("ollama pull nosuchmodel:7b");
    expect(screen).toContain("nosuchmodel:7b");
    const r = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", "nosuchmodel:7b"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ollama pull nosuchmodel:7b");
  });

  it("the chat request carries num_ctx = min(model context length, cap), the same on every request", async () => {
    fake = await startFakeOllama({
      models: [
        { name: "big", contextLength: 131072 },
        { name: "small", contextLength: 4096 },
      ],
    });
    let r = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", "big"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("ok");
    expect(fake.chats[0]!.options?.num_ctx).toBe(32768);
    r = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", "small"]);
    expect(fake.chats[1]!.options?.num_ctx).toBe(4096);
    r = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", "big", "--num-ctx-cap", "16384"]);
    expect(fake.chats[2]!.options?.num_ctx).toBe(16384);
  });

  it("with no model configured, the first installed model is used; with none installed, it says to pull one", async () => {
    fake = await startFakeOllama({ models: [{ name: "llama3.2:3b" }] });
    const r = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--output-format", "json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ answer: "ok", model: "llama3.2:3b" });
    expect(typeof out.session_id).toBe("string");
    await fake.close();
    fake = await startFakeOllama({ models: [] });
    const none = await runHeadless(sb, ["-p", "hi", "--host", fake.url]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("ollama pull");
  });
});
