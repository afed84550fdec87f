import { beforeAll, describe, it } from "vitest";
import { loadMarkdown } from "../../src/render/markdown.js";
import { view } from "../../src/ui/view/index.js";
import { agent, feed, key, newModel, typeText } from "./helpers.js";
import { expectGolden } from "./golden.js";

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
    const { model } = feed(
      newModel({ width: 80, height: 24 }),
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
    expectGolden("permission-dialog", view(model));
  });

  it("a narrow terminal", () => {
    expectGolden("narrow-40x16", view(answered(40, 16)));
  });
});
