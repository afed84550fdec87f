// `agent0 -p --provider embedded` through the built bundle: the one-shot's CommonJS file, run from V8's
// code cache (src/cli/code-cache.ts), loads the real engine (an ES module) and answers, on the run that
// writes the cache and on the run that uses it, and says nothing of its own machinery on stderr. The
// model is the tests' tiny random-weights GGUF (tests/fakes/tiny-gguf.ts); its 8,192-token window is
// small, so the lean prompt goes (an 8K window cannot hold the full one: the engine's own
// "context shift strategy" error, seen here before the fix, must never reach the user). A prompt
// the window cannot hold at all: embedded-window.test.ts.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeTinyGguf } from "../fakes/tiny-gguf.js";
import { eachTest, runHeadless, type Sandbox } from "./harness.js";
import { engineEnv } from "./engine-env.js";

describe("-p with the embedded engine, through the bundle", () => {
  let sb: Sandbox;
  eachTest((s) => (sb = s));

  const run = (model: string) => runHeadless(sb, ["-p", "hi", "--provider", "embedded", "--model", model], 240_000);

  it("loads the engine and answers, with and without the code cache, and node says nothing on stderr", async () => {
    const model = path.join(sb.home, "tiny.gguf");
    // A template that renders tools: the engine's function calling, where a random model's text is an answer
    // (plain ChatML would put it on the JSON protocol, whose random calls never end in one).
    writeTinyGguf(model, { toolsTemplate: true });
    Object.assign(sb.env, { ...engineEnv(), AGENT0_ENGINE_SEED: "3" });
    const first = await run(model);
    // A random model may earn agent0's own notices about its replies (which depend on the prompt);
    // nothing of node's or the engine's may show.
    const machinery = /\(node:\d+\)|Warning:|Cannot find module|context shift strategy/;
    expect(first.code).toBe(0);
    expect(first.stderr).not.toMatch(machinery);
    expect(first.stdout.trim()).not.toBe("");
    const second = await run(model);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toMatch(machinery);
    // The same seed, the same reply: the engine really ran both times.
    expect(second.stdout).toBe(first.stdout);
  }, 600_000);
});
