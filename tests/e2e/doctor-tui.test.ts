// Issue 39, part 3: `/doctor` in the TUI checks the session's model and adds what the terminal
// answered (`agent0 doctor`: doctor.test.ts).
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { MODEL, withServer } from "./doctor-setup.js";
import { Tui, eachTest, userConfigFile, writeJson, type Sandbox } from "./harness.js";

describe("agent0 doctor", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("/doctor in the TUI reports the session's model after /model, not the config's", async () => {
    fake = await startFakeOllama({
      models: [
        { name: MODEL, contextLength: 40960 },
        { name: "gemma3:4b", contextLength: 8192 },
      ],
    });
    sb.env.OLLAMA_HOST = fake.url;
    writeJson(userConfigFile(sb), { model: MODEL });
    tui = await Tui.open(sb, [], { height: 60 });
    await tui.waitFor(/^idle · /m, 15_000);
    tui.send("/model gemma3:4b");
    await tui.waitFor(/gemma3:4b/);
    tui.send("/doctor");
    const screen = await tui.waitFor("✓ model: gemma3:4b, window 8,192 tokens", 15_000);
    expect(screen).not.toContain(`✓ model: ${MODEL}`);
  });

  it("/doctor in the TUI adds what the terminal answered", async () => {
    fake = await withServer(sb);
    tui = await Tui.open(sb, ["--model", MODEL]);
    tui.send("/doctor");
    await tui.waitFor("agent0 can run here.", 15_000);
    const screen = await tui.waitFor("keyboard: legacy");
    expect(screen).toContain("✓ server: Ollama");
  });
});
