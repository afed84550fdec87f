import { describe, expect, it } from "vitest";
import { pairToolResults } from "../../src/providers/history.js";

describe("pairToolResults", () => {
  it("answers a tool call that has no result with '(no result)', in call order", () => {
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
      { role: "tool", content: "(no result)", toolCallId: "a", toolName: "x" },
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

  it("leaves a well-formed history as it is", () => {
    const history = [
      { role: "system" as const, content: "s" },
      { role: "assistant" as const, content: "", toolCalls: [{ id: "a", name: "x", args: {} }] },
      { role: "tool" as const, content: "A", toolCallId: "a", toolName: "x" },
    ];
    expect(pairToolResults(history)).toEqual(history);
  });
});
