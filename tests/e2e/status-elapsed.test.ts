// Issue 17's status line, end to end in tmux against the fake Ollama: the elapsed time counts from
// the prompt (the rest of issue 17: status-truths.test.ts, status-tokens.test.ts).
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest, sleep } from "./harness.js";

describe("a truthful status line", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("the elapsed time counts from the prompt, not from the idle time before it", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: [{ steps: [{ text: "slow", delayMs: 4000 }] }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"]);
    await tui.waitFor("Ask anything");
    await tui.waitFor("idle");
    // Two seconds idle (nothing repaints meanwhile), then the prompt.
    await sleep(2000);
    tui.type("go");
    const sent = Date.now();
    tui.press("Enter");
    const screen = await tui.waitFor(/(loading model|thinking)… \d+s/);
    const seen = Date.now();
    const secs = Number(/… (\d+)s/.exec(screen)![1]);
    // Counted from the prompt it shows at most the whole seconds between sending and seeing it,
    // however slow the machine; counted from the idle start, two more.
    expect(secs).toBeLessThanOrEqual(Math.floor((seen - sent) / 1000));
  });
});
