// A text-written call is taken only when its arguments fit the tool's schema. Schemas zod reads are
// checked whole by zod, in the runner's words; a schema zod cannot read is still checked for what
// it states at its top. The unreadable ones are what MCP servers send: zod-to-json-schema's default
// output (`$refStrategy: "root"`, draft-07 `definitions` with `#/definitions/…` refs, used by MCP
// servers written with the TypeScript SDK before it moved to zod 4), and JSON Schema's if/then
// (json-schema.org/understanding-json-schema/reference/conditionals).
import { describe, expect, it } from "vitest";
import { checkArgs } from "../../src/agent/replies/call-checks.js";

const ZOD_TO_JSON_SCHEMA = {
  type: "object",
  properties: { path: { type: "string" }, options: { $ref: "#/definitions/Options" } },
  required: ["path"],
  additionalProperties: false,
  definitions: { Options: { type: "object", properties: { depth: { type: "integer" } } } },
  // `$schema: draft-07` is dropped as the tool reaches the model and this check (src/tools/mcp.ts).
};
const CONDITIONAL = {
  type: "object",
  properties: { mode: { type: "string" }, count: { type: "integer" } },
  required: ["mode"],
  if: { properties: { mode: { const: "many" } } },
  then: { required: ["count"] },
};
const PLAIN = {
  type: "object",
  properties: { path: { type: "string" }, limit: { type: "integer", minimum: 1 } },
  required: ["path"],
};

describe("a text call's arguments against the tool's schema", () => {
  it("a schema zod reads: refused in the runner's words (a missing field, a bound)", () => {
    expect(checkArgs({ limit: 3 }, PLAIN)).toEqual({ ok: false, why: "path: missing (expected string)" });
    expect(checkArgs({ path: "a.ts", limit: 0 }, PLAIN)).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^limit: /),
    });
    expect(checkArgs({ path: "a.ts", limit: 2 }, PLAIN)).toEqual({ ok: true, args: { path: "a.ts", limit: 2 } });
  });

  it("a schema zod reads is judged by zod alone: a required field that may be null, given null, fits", () => {
    const schema = { type: "object", properties: { note: { type: ["string", "null"] } }, required: ["note"] };
    expect(checkArgs({ note: null }, schema)).toEqual({ ok: true, args: { note: null } });
  });

  it.each([
    ["zod-to-json-schema's definitions", ZOD_TO_JSON_SCHEMA, { options: { depth: 1 } }, "path: missing"],
    ["an if/then schema", CONDITIONAL, { count: 2 }, "mode: missing"],
  ])("%s: zod cannot read it, its required fields still hold", (_, schema, args, why) => {
    expect(checkArgs(args, schema)).toEqual({ ok: false, why });
  });

  it("zod-to-json-schema's definitions: no parameter it does not declare, types as declared, and a fitting call taken", () => {
    expect(checkArgs({ path: "a.ts", force: true }, ZOD_TO_JSON_SCHEMA)).toEqual({
      ok: false,
      why: "force: the tool has no such parameter",
    });
    expect(checkArgs({ path: ["a.ts"] }, ZOD_TO_JSON_SCHEMA)).toEqual({ ok: false, why: "path: expected string" });
    expect(checkArgs({ path: "a.ts", options: { depth: 2 } }, ZOD_TO_JSON_SCHEMA)).toEqual({
      ok: true,
      args: { path: "a.ts", options: { depth: 2 } },
    });
  });
});
