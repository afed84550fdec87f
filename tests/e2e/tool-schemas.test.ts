// The bundle sends the built-in tools' JSON schemas computed at build time (scripts/bundle.mjs,
// src/tools/builtin-schemas.ts) instead of converting the zod schemas at start: what the model
// receives must be exactly what the zod schemas say.
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { builtinToolSchemas } from "../../src/tools/builtin-schemas.js";
import { eachTest, runHeadless, type Sandbox } from "./harness.js";

interface WireTool {
  type: string;
  function: { name: string; description: string; parameters: unknown };
}

describe("the built-in tools' schemas in the bundle", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  it.each(["qwen3:8b", "gpt-oss:20b"])("are what zod derives, for every tool %s is offered", async (model) => {
    fake = await startFakeOllama({ models: [{ name: model }], replies: [{ steps: [{ text: "ok" }] }] });
    const r = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", model]);
    expect(r.code).toBe(0);
    const sent = (fake.chats[0]!.tools ?? []) as WireTool[];
    const fromZod = builtinToolSchemas();
    expect(sent.length).toBeGreaterThan(10);
    for (const tool of sent)
      expect([tool.function.name, tool.function.parameters]).toEqual([tool.function.name, fromZod[tool.function.name]]);
  });
});
