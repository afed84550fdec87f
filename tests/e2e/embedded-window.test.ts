// `agent0 -p --provider embedded` with a model whose window (2,048 tokens) cannot hold the prompt:
// agent0's own refusal with both figures, not the engine's "context shift strategy" error (seen
// before the fix). The model is the tests' tiny random-weights GGUF (tests/fakes/tiny-gguf.ts).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeTinyGguf } from "../fakes/tiny-gguf.js";
import { eachTest, runHeadless, type Sandbox } from "./harness.js";
import { engineEnv } from "./engine-env.js";

describe("-p with the embedded engine and a small window", () => {
  let sb: Sandbox;
  eachTest((s) => (sb = s));

  const run = (model: string) => runHeadless(sb, ["-p", "hi", "--provider", "embedded", "--model", model], 240_000);

  it("refuses a prompt longer than the model's window with both figures, not the engine's words", async () => {
    const model = path.join(sb.home, "tiny-2k.gguf");
    writeTinyGguf(model, { contextLength: 2048 });
    Object.assign(sb.env, engineEnv());
    const r = await run(model);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/The prompt \([\d,]+ tokens\) exceeds the model's context window \(2,048 tokens\)/);
    expect(r.stderr).not.toMatch(/context shift strategy/);
    expect(r.stderr).not.toMatch(/ExperimentalWarning/);
  }, 600_000);
});
