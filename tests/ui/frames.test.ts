import { beforeAll, describe, expect, it } from "vitest";
import { loadMarkdown } from "../../src/render/markdown.js";
import { view } from "../../src/ui/view/index.js";
import { agent, feed, key, newModel, strip, typeText } from "./helpers.js";
import { expectGolden } from "./golden.js";
import type { Model } from "../../src/ui/model.js";

// Whole frames compared exactly with files under tests/ui/golden/: a rendering change is a
// reviewed diff of those files (UPDATE_GOLDEN=1 npx vitest run tests/ui/frames.test.ts).

const ANSWER = [
  "## Plan",
  "",
  "The parser **drops** the last line when the file has no final newline. Fix it in `parse()`:",
  "",
  "1. read the tail",
  "2. keep a partial line",
  "",
  "```ts",
  "export function parse(text: string): string[] {",
  '  return text.split("\\n");',
  "}",
  "```",
  "",
  "| file | change |",
  "| --- | --- |",
  "| src/parse.ts | +3 -1 |",
].join("\n");

const DIFF = [
  "--- a/src/parse.ts",
  "+++ b/src/parse.ts",
  "@@ -1,3 +1,4 @@",
  " export function parse(text: string): string[] {",
  '-  return text.split("\\n");',
  '+  const lines = text.split("\\n");',
  '+  return lines.at(-1) === "" ? lines.slice(0, -1) : lines;',
  " }",
  "",
].join("\n");

/** The user asks for a fix; the model's edit waits for approval. */
function askToEdit(model: Model) {
  return feed(
    model,
    ...typeText("fix it"),
    key("enter"),
    agent({
      type: "tool-start",
      id: "c1",
      name: "edit_file",
      args: { path: "src/parse.ts" },
      label: "edit src/parse.ts",
    }),
    agent({
      type: "permission-request",
      id: "p1",
      tool: "edit_file",
      args: { path: "src/parse.ts" },
      preview: DIFF,
      allowKey: "edit_file",
    }),
  );
}

function answered(width: number, height: number) {
  return feed(
    newModel({ width, height }),
    ...typeText("why does parse drop a line?"),
    key("enter"),
    agent({ type: "text", delta: ANSWER }),
    agent({ type: "message", message: { role: "assistant", content: ANSWER } }),
    agent({ type: "done", reason: "complete" }),
  ).model;
}

describe("golden frames", () => {
  beforeAll(async () => {
    await loadMarkdown();
  });

  it("a markdown answer", () => {
    expectGolden("markdown-answer", view(answered(80, 30)));
  });

  it("an edit with its diff", () => {
    const { model } = feed(
      newModel({ width: 80, height: 20 }),
      ...typeText("fix it"),
      key("enter"),
      agent({
        type: "tool-start",
        id: "c1",
        name: "edit_file",
        args: { path: "src/parse.ts" },
        label: "edit src/parse.ts",
      }),
      agent({
        type: "tool-end",
        id: "c1",
        display: { label: "edit src/parse.ts", ok: true, summary: "+2 -1", diff: DIFF, path: "src/parse.ts" },
      }),
    );
    expectGolden("edit-diff", view(model));
  });

  it("the permission dialog", () => {
    const { model } = askToEdit(newModel({ width: 80, height: 24 }));
    expectGolden("permission-dialog", view(model));
  });

  it("a narrow terminal", () => {
    expectGolden("narrow-40x16", view(answered(40, 16)));
  });

  // The status line keeps its key figure: the context meter is whole at 80 and 120 columns,
  // idle, while a run streams with the view scrolled up, and while an approval waits (issue 26).
  describe("the status line at 80 and 120 columns", () => {
    const LONG = Array.from({ length: 60 }, (_, i) => `Line ${i} of a long answer about the parser.`).join("\n\n");
    /** A session that has spent tokens: the meter is part full and the session total is shown. */
    const used = (width: number) =>
      feed(
        newModel({ width, height: 24 }),
        ...typeText("why does parse drop a line?"),
        key("enter"),
        agent({ type: "usage", promptTokens: 5400, completionTokens: 700, contextWindow: 8192 }),
        agent({ type: "text", delta: "The parser drops it." }),
        agent({ type: "message", message: { role: "assistant", content: "The parser drops it." } }),
        agent({ type: "done", reason: "complete" }),
      ).model;
    for (const width of [80, 120]) {
      it(`idle, ${width} columns`, () => {
        expectGolden(`status-idle-${width}`, view(used(width)));
      });
      it(`running, scrolled up while new lines arrive, ${width} columns`, () => {
        const { model } = feed(
          used(width),
          ...typeText("tell me more"),
          key("enter"),
          agent({ type: "text", delta: LONG }),
          key("pageup"),
          agent({ type: "text", delta: "\n\nSix more lines.\n\nFive.\n\nFour." }),
          { type: "tick", now: 13_000 },
        );
        const frame = view(model);
        expect(strip(frame.status)).toMatch(/\d+(\.\d)?k of 8\.2k \(\d+%\)/);
        expect(strip(frame.status)).toContain("new lines");
        expectGolden(`status-running-${width}`, frame);
      });
      it(`during an approval, ${width} columns`, () => {
        const { model } = askToEdit(used(width));
        const frame = view(model);
        expect(strip(frame.status)).toContain("6.1k of 8.2k (74%)");
        if (width === 120) expect(strip(frame.status)).toContain("tokens this session");
        expectGolden(`status-approval-${width}`, frame);
      });
    }
  });
});
