import { describe, expect, it } from "vitest";
import { view } from "../../src/ui/view/index.js";
import { agent, feed, key, newModel, strip, typeText } from "./helpers.js";

const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `row ${from + i}`).join("\n\n") + "\n\n";

function streaming() {
  return feed(newModel({ height: 20 }), ...typeText("q"), key("enter"), agent({ type: "text", delta: rows(60) })).model;
}

describe("a scrolled-up view holds still", () => {
  it("while the answer streams on below it, and says how much arrived", () => {
    let model = feed(streaming(), key("pageup")).model;
    const before = view(model).transcript;
    model = feed(model, agent({ type: "text", delta: rows(40, 60) })).model;
    const after = view(model);
    expect(after.transcript).toEqual(before);
    // 40 paragraphs = 80 lines (a blank line between them).
    expect(strip(after.status)).toContain("↓ 80 new lines — End to follow");
    model = feed(model, key("end")).model;
    expect(model.anchor).toBeNull();
    expect(strip(view(model).transcript.join("\n"))).toContain("row 99");
  });

  it("while new entries (tool lines, notices) are added below", () => {
    let model = feed(streaming(), key("pageup"), key("pageup")).model;
    const before = view(model).transcript;
    model = feed(
      model,
      agent({ type: "tool-start", id: "c1", name: "read_file", args: {}, label: "read a.ts" }),
      agent({ type: "tool-end", id: "c1", display: { label: "read a.ts", ok: true, summary: "3 lines" } }),
      agent({ type: "notice", level: "info", text: "hello" }),
    ).model;
    expect(view(model).transcript).toEqual(before);
  });

  it("while an entry above it re-renders shorter (thinking folded)", () => {
    let model = feed(
      newModel({ height: 20 }),
      ...typeText("q"),
      key("enter"),
      agent({ type: "thinking", delta: rows(30) }),
      agent({ type: "text", delta: "first answer" }),
      agent({ type: "done", reason: "complete" }),
      ...typeText("again"),
      key("enter"),
      agent({ type: "text", delta: rows(60) }),
      key("t", { ctrl: true }),
    ).model;
    model = feed(model, key("pageup")).model;
    const before = view(model).transcript;
    model = feed(model, key("t", { ctrl: true })).model;
    expect(view(model).transcript).toEqual(before);
  });

  it("a resize keeps the top visible entry in view", () => {
    let model = feed(
      newModel({ height: 20 }),
      ...Array.from({ length: 30 }, (_, i) => [
        ...typeText(`question ${i}`),
        key("enter"),
        agent({ type: "text", delta: `answer ${i}` }),
        agent({ type: "done", reason: "complete" }),
      ]).flat(),
    ).model;
    model = feed(model, key("pageup"), key("pageup")).model;
    const top = strip(view(model).transcript.find((l) => l.trim()) ?? "");
    model = feed(model, { type: "resize", width: 50, height: 12 }).model;
    expect(strip(view(model).transcript.join("\n"))).toContain(top.trim());
  });
});
