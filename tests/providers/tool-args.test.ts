import { describe, expect, it } from "vitest";
import { newCallId, parseToolArgs } from "../../src/providers/tool-args.js";

describe("parseToolArgs: the one rule for tool-call arguments", () => {
  it.each([
    ["an object", { path: "a.txt" }, { path: "a.txt" }],
    ["nothing", undefined, {}],
    ["null", null, {}],
    ["an empty string", "  ", {}],
    ["JSON text (OpenAI, Anthropic)", '{"path": "a.txt", "limit": 5}', { path: "a.txt", limit: 5 }],
    // Double-encoded arguments: a JSON string whose value is the JSON text of the object.
    ["a JSON string holding JSON", JSON.stringify(JSON.stringify({ path: "a.txt" })), { path: "a.txt" }],
    ["trailing comma", '{"path": "a.txt",}', { path: "a.txt" }],
    [
      "single quotes and Python literals",
      "{'path': 'a.txt', 'all': True, 'x': None}",
      { path: "a.txt", all: true, x: null },
    ],
  ])("%s", (_what, raw, args) => {
    expect(parseToolArgs(raw)).toEqual({ ok: true, args });
  });

  it.each([
    ["an array", "[1, 2]", "expected a JSON object, got an array"],
    ["a number", 5, "expected a JSON object, got a number"],
    ["a bare word", "hello", "not valid JSON: hello"],
    ["cut-off JSON", '{"path": "a.t', 'not valid JSON: {"path": "a.t'],
    ["a JSON string of prose", JSON.stringify("just words"), "not valid JSON: just words"],
  ])("refuses %s", (_what, raw, error) => {
    expect(parseToolArgs(raw)).toEqual({ ok: false, error });
  });
});

describe("newCallId", () => {
  it("makes distinct call_ ids", () => {
    const ids = new Set(Array.from({ length: 200 }, newCallId));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^call_[a-z0-9]{8}$/);
  });
});
