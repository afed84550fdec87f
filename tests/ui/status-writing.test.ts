// Issue 38 §1: a constrained reply streams, and the status line says what the model is writing —
// the tool's name as soon as it is known — until the tool runs.
import { describe, expect, it } from "vitest";
import { view } from "../../src/ui/view/index.js";
import { agent, feed, key, newModel, strip, typeText } from "./helpers.js";

describe("the status line while a constrained reply streams", () => {
  it("names the tool being written, then the running tool", () => {
    const started = feed(newModel({ width: 100 }), ...typeText("read a.txt"), key("enter")).model;
    expect(started.run).toBeDefined();
    const writing = feed(
      started,
      agent({ type: "thinking", delta: '{"thoughts": [], "tool_name": "read_file"' }),
      agent({ type: "status", phase: "thinking", writing: "read_file" }),
      agent({ type: "thinking", delta: ', "tool_args": {"path": "a.txt"}}' }),
    ).model;
    expect(strip(view(writing).status)).toContain("writing a read_file call…");
    const running = feed(
      writing,
      agent({ type: "status", phase: "tool" }),
      agent({ type: "tool-start", id: "c1", name: "read_file", args: { path: "a.txt" }, label: "Read a.txt" }),
    ).model;
    expect(strip(view(running).status)).not.toContain("writing a read_file call");
  });
});
