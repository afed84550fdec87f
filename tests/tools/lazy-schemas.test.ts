// A tool's zod schema is built when the runner first needs it (tools/types.ts defineTool): a run
// that calls no tool, a one-shot's plain answer, builds none (the model is sent JSON schemas made
// at build time).
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { toolsFor } from "../../src/tools/catalog.js";
import { validateArgs } from "../../src/tools/runner.js";
import { defineTool } from "../../src/tools/types.js";
import type { RunConfig } from "../../src/protocol/run-config.js";

describe("a tool's schema, built on first use", () => {
  it("is built at the first validation, once, and checks as the schema itself would", () => {
    let built = 0;
    const tool = defineTool({
      name: "count",
      description: "Counts.",
      schema: () => {
        built++;
        return z.object({ n: z.number().int() });
      },
      readOnly: true,
      concurrentSafe: true,
      label: (args) => `count ${args.n}`,
      run: (args) => ({ content: String(args.n) }),
    });
    expect(built).toBe(0);
    expect(validateArgs(tool, { n: 2 })).toEqual({ ok: true, args: { n: 2 } });
    expect(validateArgs(tool, { n: 2.5 })).toMatchObject({ ok: false });
    expect(built).toBe(1);
    expect(tool.label({ n: 3 })).toBe("count 3");
  });

  it("is deferred by every built-in tool", () => {
    const config = { model: "gpt-oss:20b", cwd: ".", configDir: "." } as RunConfig;
    const eager = toolsFor(config, undefined, [])
      .filter((t) => Object.getOwnPropertyDescriptor(t, "schema")?.get === undefined)
      .map((t) => t.name);
    expect(eager).toEqual([]);
  });
});
