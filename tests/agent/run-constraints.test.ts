// The reply schemas are built once per tool set, at the first step that needs one (issue 38 §1:
// nothing built for a run that never decodes under a schema; every later step looks it up).
import { describe, expect, test } from "vitest";
import { constraintsFor } from "../../src/agent/run-state.js";
import { CALL_CONSTRAINT } from "../../src/agent/replies/protocol-schema.js";
import type { ToolSpec } from "../../src/protocol/tool-spec.js";

/** A tool set that counts every read of its specs: a build reads them, a lookup does not. */
function countedSpecs(): { specs: ToolSpec[]; reads: () => number } {
  let reads = 0;
  const spec = (name: string): ToolSpec =>
    new Proxy(
      { name, description: `${name} a file`, parameters: { type: "object", properties: { path: { type: "string" } } } },
      {
        get(target, key, receiver) {
          reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
  return { specs: [spec("read_file"), spec("list_files")], reads: () => reads };
}

describe("a run's reply schemas", () => {
  test("none is built until a step asks; then each is built once and looked up after", () => {
    const { specs, reads } = countedSpecs();
    const constraints = constraintsFor(specs);
    expect(reads()).toBe(0);

    const reply = constraints.reply();
    const built = reads();
    expect(built).toBeGreaterThan(0);
    expect(JSON.stringify(reply.schema)).toContain('"const":"list_files"');
    for (let i = 0; i < 5; i++) expect(constraints.reply()).toBe(reply);
    expect(reads()).toBe(built);

    const calls = constraints.calls();
    expect(calls.name).toBe(CALL_CONSTRAINT);
    const both = reads();
    expect(both).toBeGreaterThan(built);
    expect(constraints.calls()).toBe(calls);
    expect(reads()).toBe(both);
  });

  test("another tool set (a changed MCP list, refreshTools) builds its own", () => {
    const first = constraintsFor(countedSpecs().specs).reply();
    const { specs, reads } = countedSpecs();
    const second = constraintsFor(specs).reply();
    expect(reads()).toBeGreaterThan(0);
    expect(second).not.toBe(first);
  });
});
