// toGbnfJsonSchema: agent0's protocol schema (anyOf of branches, `const` beside `type`) in the forms
// node-llama-cpp's GbnfJsonSchema has (node-llama-cpp 3.21 src/utils/gbnfJson/types.ts: oneOf, const
// and enum alone, object, array, string with min/maxLength or a date format, the immutable types).
import { describe, expect, it } from "vitest";
import { toGbnfJsonSchema } from "../../src/providers/embedded/gbnf-schema.js";
import { protocolConstraint } from "../../src/agent/replies/protocol-schema.js";
import { toolSpecs } from "../../src/tools/runner.js";
import { coreTools } from "../../src/tools/catalog.js";

const KNOWN = new Set([
  "type",
  "const",
  "enum",
  "oneOf",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "format",
  "description",
]);

function keysOf(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) keysOf(s, out);
  else if (schema && typeof schema === "object")
    for (const [k, v] of Object.entries(schema)) {
      out.add(k);
      if (k === "properties") for (const p of Object.values(v as object)) keysOf(p, out);
      else if (k !== "const" && k !== "enum" && k !== "required") keysOf(v, out);
    }
  return out;
}

describe("toGbnfJsonSchema", () => {
  it("a choice is oneOf, a const stands alone", () => {
    expect(
      toGbnfJsonSchema({
        anyOf: [
          { type: "string", const: "a" },
          { type: "integer", minimum: 1 },
        ],
      }),
    ).toEqual({
      oneOf: [{ const: "a" }, { type: "integer" }],
    });
  });

  it("an optional bounded number is left out (the grammar's numbers take a sign and an exponent); a required one stays", () => {
    const schema = {
      type: "object",
      properties: {
        path: { type: "string" },
        offset: { type: "integer", minimum: 1 },
        count: { type: "integer", minimum: 0 },
      },
      required: ["path", "count"],
    };
    expect(toGbnfJsonSchema(schema)).toEqual({
      type: "object",
      properties: { path: { type: "string" }, count: { type: "integer" } },
      required: ["path", "count"],
      additionalProperties: false,
    });
  });

  it("a list of types is a choice of each", () => {
    expect(toGbnfJsonSchema({ type: ["string", "null"] })).toEqual({ oneOf: [{ type: "string" }, { type: "null" }] });
  });

  it("the protocol schema of every built-in tool uses only keywords the engine knows", () => {
    const schema = toGbnfJsonSchema(protocolConstraint(toolSpecs(coreTools)).schema);
    expect([...keysOf(schema)].filter((k) => !KNOWN.has(k))).toEqual([]);
    expect((schema.oneOf as unknown[]).length).toBe(coreTools.length + 1);
  });
});
