// Issue 25, a model that is still loading: its loading line stays and the idle time-out does not
// end the run (the rest of issue 25: local-models.test.ts, local-models-context.test.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

describe("local models, fast and whole", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("a model that is still loading keeps its loading line and is not timed out", async () => {
    fs.writeFileSync(path.join(sb.home, ".config", "agent0", "config.json"), JSON.stringify({ idleTimeoutMs: 1000 }));
    fake = await startFakeOllama({
      models: [MODEL],
      loadMs: 3000,
      replies: [{ steps: [{ text: "Loaded and answering." }], loadDelayMs: 2000 }],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name]);
    tui.send("hello");
    // The idle time-out (1 s) is half the load (2 s before the first byte, 3 s for the warm-up): a
    // run it ended would never answer.
    await tui.waitFor(/loading model… \d+s/);
    const screen = await tui.waitFor("Loaded and answering.", 15_000);
    expect(screen).not.toMatch(/timed out|timeout/i);
    // The warm-up and the chat carried the same keep_alive.
    const load = fake.requests.find(
      (r) => r.path === "/api/chat" && (r.body as { messages: unknown[] }).messages.length === 0,
    );
    expect((load?.body as { keep_alive?: unknown }).keep_alive).toBe(fake.chats[0]!.keep_alive);
  }, 60_000);
});
