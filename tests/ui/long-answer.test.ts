import { expect, test } from "vitest";
import { view } from "../../src/ui/view/index.js";
import { agent, feed, key, newModel, strip, typeText } from "./helpers.js";

// More lines than a function call takes as spread arguments (~120k in V8): the view must not
// pass an entry's lines as arguments anywhere.
const LINES = 150_000;
const text = Array.from({ length: LINES }, (_, i) => `line ${i}`).join("\n");

test("an answer of 150,000 lines is shown, streaming and finished, with its thinking open", () => {
  let model = feed(
    newModel({ height: 20 }),
    ...typeText("q"),
    key("enter"),
    agent({ type: "thinking", delta: text }),
    agent({ type: "text", delta: text }),
  ).model;
  expect(strip(view(model).transcript.at(-1) ?? "")).toBe(`line ${LINES - 1}`);
  model = feed(model, key("t", { ctrl: true }), agent({ type: "done", reason: "complete" })).model;
  const lines = view(model).transcript.map(strip);
  expect(lines.at(-1)).toBe(`line ${LINES - 1}`);
  expect(lines.at(-2)).toBe(`line ${LINES - 2}`);
});
