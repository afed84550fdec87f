import { describe, expect, it } from "vitest";
import { NOT_RUN, pairToolResults } from "../../src/protocol/history.js";

describe("pairToolResults", () => {
  it("answers a tool call that has no result with 'Not run', in call order", () => {
    const out = pairToolResults([
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "a", name: "x", args: {} },
          { id: "b", name: "y", args: {} },
        ],
      },
      { role: "tool", content: "B", toolCallId: "b", toolName: "y" },
      { role: "user", content: "next" },
    ]);
    expect(out).toEqual([
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "a", name: "x", args: {} },
          { id: "b", name: "y", args: {} },
        ],
      },
      { role: "tool", content: NOT_RUN, toolCallId: "a", toolName: "x" },
      { role: "tool", content: "B", toolCallId: "b", toolName: "y" },
      { role: "user", content: "next" },
    ]);
  });

  it("keeps a result that answers no call as user text", () => {
    expect(
      pairToolResults([
        { role: "user", content: "hi" },
        { role: "tool", content: "out", toolCallId: "zz", toolName: "bash" },
      ]),
    ).toEqual([
      { role: "user", content: "hi" },
      { role: "user", content: "Tool result (bash):\nout" },
    ]);
  });

  it("moves a late result back under its call, and keeps an orphan after a call as user text", () => {
    const call = { role: "assistant" as const, content: "", toolCalls: [{ id: "a", name: "x", args: {} }] };
    expect(
      pairToolResults([
        call,
        { role: "user", content: "meanwhile" },
        { role: "tool", content: "A", toolCallId: "a", toolName: "x" },
        { role: "tool", content: "stray", toolCallId: "q", toolName: "y" },
      ]),
    ).toEqual([
      call,
      { role: "tool", content: "A", toolCallId: "a", toolName: "x" },
      { role: "user", content: "meanwhile" },
      { role: "user", content: "Tool result (y):\nstray" },
    ]);
  });

  it("leaves a well-formed history as it is", () => {
    const history = [
      { role: "system" as const, content: "s" },
      { role: "assistant" as const, content: "", toolCalls: [{ id: "a", name: "x", args: {} }] },
      { role: "tool" as const, content: "A", toolCallId: "a", toolName: "x" },
    ];
    expect(pairToolResults(history)).toEqual(history);
  });
});
