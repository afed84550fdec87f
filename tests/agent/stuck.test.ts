import { describe, expect, it } from "vitest";
import { canonicalJson, createStuckState, observeStep, type Step, type StuckVerdict } from "../../src/agent/stuck.js";

type Call = { name: string; args: Record<string, unknown> };
const call = (name: string, args: Record<string, unknown> = {}): Call => ({ name, args });
const A = call("read_file", { path: "a.txt" });
const B = call("read_file", { path: "b.txt" });
const C = call("grep", { pattern: "x" });
const search = (q: string): Call => call("web_search", { query: q });
const calls = (...cs: Call[]): Step => ({ toolCalls: cs });
const unusable = (kind: Step["unusable"] & string): Step => ({ toolCalls: [], unusable: kind });

/** Feed the steps in order; return every verdict. */
function run(steps: Step[], maxSteps?: number): StuckVerdict[] {
  let state = createStuckState();
  return steps.map((step) => {
    const out = observeStep(state, step, maxSteps === undefined ? {} : { maxSteps });
    state = out.state;
    return out.verdict;
  });
}

const OK = { kind: "ok" };
const last = <T>(xs: T[]): T => xs[xs.length - 1]!;

describe("rule 1: the same call three times in a row", () => {
  it("stops at the third identical call and names it", () => {
    const verdicts = run([calls(A), calls(A), calls(A)]);
    expect(verdicts.slice(0, 2)).toEqual([OK, OK]);
    expect(verdicts[2]).toEqual({
      kind: "stop",
      reason: "stuck",
      message: 'Stopped: read_file {"path":"a.txt"} was called 3 times in a row with the same arguments.',
    });
  });

  it("sees the same arguments in any key order", () => {
    const x = call("edit", { path: "a", old: "1", new: "2" });
    const y = call("edit", { new: "2", path: "a", old: "1" });
    expect(last(run([calls(x), calls(y), calls(x)])).kind).toBe("stop");
  });

  it("treats a step's whole list of calls as its call", () => {
    const verdicts = run([calls(A, C), calls(A, C), calls(A, C)]);
    expect(last(verdicts)).toEqual({
      kind: "stop",
      reason: "stuck",
      message:
        'Stopped: read_file {"path":"a.txt"} + grep {"pattern":"x"} were called 3 times in a row with the same arguments.',
    });
  });

  it("cuts very long arguments in the message", () => {
    const big = call("create_file", { path: "a", content: "x".repeat(500) });
    const verdict = last(run([calls(big), calls(big), calls(big)]));
    expect(verdict.kind === "stop" && verdict.message.length).toBeLessThan(250);
  });
});

describe("rule 2: web_search in one turn", () => {
  it("nudges once at the third search and stops at the sixth", () => {
    const verdicts = run(["a", "b", "c", "d", "e", "f"].map((q) => calls(search(q))));
    expect(verdicts.map((v) => v.kind)).toEqual(["ok", "ok", "nudge", "ok", "ok", "stop"]);
    expect(verdicts[2]).toEqual({
      kind: "nudge",
      message:
        "You have searched the web 3 times for this request. Do not search again: answer the user now with what you have found, and say what is still uncertain.",
    });
    expect(verdicts[5]).toEqual({
      kind: "stop",
      reason: "stuck",
      message: "Stopped: web_search was called 6 times in one turn.",
    });
  });

  it("counts several searches in one step", () => {
    expect(run([calls(search("a"), search("b"), search("c"))])[0]!.kind).toBe("nudge");
  });
});

describe("rule 3: A-B-A-B oscillation", () => {
  it("stops when two calls alternate over six steps", () => {
    const verdicts = run([calls(A), calls(B), calls(A), calls(B), calls(A), calls(B)]);
    expect(verdicts.slice(0, 5).every((v) => v.kind === "ok")).toBe(true);
    expect(verdicts[5]).toEqual({
      kind: "stop",
      reason: "stuck",
      message:
        'Stopped: the model went back and forth between read_file {"path":"a.txt"} and read_file {"path":"b.txt"} 3 times each.',
    });
  });
});

describe("rule 4: unusable replies", () => {
  it("stops at the second unusable reply in a row and suggests a larger model", () => {
    const verdicts = run([unusable("invalid-args"), unusable("empty")]);
    expect(verdicts.slice(0, 1)).toEqual([OK]);
    expect(verdicts[1]).toEqual({
      kind: "stop",
      reason: "stuck",
      message:
        "Stopped: the model gave 2 unusable replies in a row (invalid tool arguments, empty reply). It may be too small for tool use: try a larger model, e.g. qwen2.5-coder:14b or larger, with /model.",
    });
  });

  it("starts counting again after a usable step", () => {
    const verdicts = run([unusable("unknown-tool"), calls(A), unusable("malformed"), calls(B), unusable("empty")]);
    expect(verdicts.every((v) => v.kind === "ok")).toBe(true);
  });
});

describe("rule 5: the step cap", () => {
  it("stops after maxSteps model calls that want to go on", () => {
    const steps = Array.from({ length: 50 }, (_, i) => calls(call("read_file", { path: `f${i}` })));
    const verdicts = run(steps);
    expect(verdicts.slice(0, 49).every((v) => v.kind === "ok")).toBe(true);
    expect(verdicts[49]).toEqual({
      kind: "stop",
      reason: "max-steps",
      message: "Stopped: reached the limit of 50 steps for one request.",
    });
  });

  it("honours a smaller cap", () => {
    expect(run([calls(A), calls(B), calls(C)], 3).map((v) => v.kind)).toEqual(["ok", "ok", "stop"]);
  });

  it("lets a final answer at the cap through", () => {
    expect(last(run([calls(A), calls(B), calls()], 3))).toEqual(OK);
  });
});

describe("what must not trigger", () => {
  it.each<[string, Step[]]>([
    [
      "the same tool with different arguments",
      [A, B, call("read_file", { path: "c.txt" }), call("read_file", { path: "d.txt" })].map((c) => calls(c)),
    ],
    ["different calls interleaved", [A, B, C, A, B, C, A, B, C].map((c) => calls(c))],
    ["two repeats then a different call", [A, A, B, B, C, C].map((c) => calls(c))],
    ["a repeat broken by a text-only step", [calls(A), calls(A), calls(), calls(A)]],
    ["an oscillation broken before six steps", [A, B, A, B, A, C].map((c) => calls(c))],
    ["one unusable reply then a good one, twice", [unusable("empty"), calls(A), unusable("empty"), calls(B)]],
    ["two web searches", [calls(search("a")), calls(search("b"))]],
  ])("%s", (_, steps) => {
    expect(run(steps).filter((v) => v.kind !== "ok")).toEqual([]);
  });
});

describe("state", () => {
  it("is not changed by observing", () => {
    const state = createStuckState();
    const copy = structuredClone(state);
    observeStep(state, calls(A));
    expect(state).toEqual(copy);
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("drops undefined values like JSON does", () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });
});

describe("polls of a background command (issue 43 §3)", () => {
  const poll = call("shell_output", { id: "bash_1" });
  it("never count while the command runs or its output changes", () => {
    const steps = Array.from({ length: 8 }, (): Step => ({ toolCalls: [poll], waiting: true }));
    expect(run(steps).every((v) => v.kind === "ok")).toBe(true);
  });

  it("count again once there is nothing new: the third idle poll after the end stops", () => {
    const verdicts = run([
      { toolCalls: [poll], waiting: true },
      { toolCalls: [poll], waiting: true },
      calls(poll),
      calls(poll),
      calls(poll),
    ]);
    expect(verdicts.map((v) => v.kind)).toEqual(["ok", "ok", "ok", "ok", "stop"]);
  });
});
