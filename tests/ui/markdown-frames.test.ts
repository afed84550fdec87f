// One golden frame per markdown element the transcript styles (issue 17); UPDATE_GOLDEN=1
// npx vitest run tests/ui/markdown-frames.test.ts rewrites them.
import { beforeAll, describe, it } from "vitest";
import { loadMarkdown } from "../../src/render/markdown.js";
import { view, type Frame } from "../../src/ui/view/index.js";
import { agent, feed, key, newModel, typeText } from "./helpers.js";
import { expectGolden } from "./golden.js";

const WIDTH = 48;
const HEIGHT = 18;

function frameOf(markdown: string): Frame {
  const { model } = feed(
    newModel({ width: WIDTH, height: HEIGHT }),
    ...typeText("show me"),
    key("enter"),
    agent({ type: "text", delta: markdown }),
    agent({ type: "done", reason: "complete" }),
  );
  return view(model);
}

beforeAll(async () => {
  await loadMarkdown();
});

describe("markdown in the transcript (golden frames)", () => {
  it("italic text is italic (SGR 3), bold stays bold", () => {
    expectGolden("md-italic", frameOf("This is *subtle*, _also subtle_ and **loud**."));
  });

  it("strikethrough is struck through (SGR 9)", () => {
    expectGolden("md-strikethrough", frameOf("The ~~old plan~~ new plan."));
  });

  it("lists: indented by 2, hanging indent, nested bullets, numbers", () => {
    expectGolden(
      "md-lists",
      frameOf(
        [
          "- a first item long enough to wrap under its own text, not under the bullet",
          "- second",
          "  - nested one",
          "    - deeper",
          "",
          "1. one",
          "2. two, also long enough to wrap around the right edge of the frame",
        ].join("\n"),
      ),
    );
  });

  it("tables: column alignment from the :---: row", () => {
    expectGolden(
      "md-table-align",
      frameOf(
        ["| left | centre | right |", "| :--- | :----: | ----: |", "| a | b | 1 |", "| aa | bbbb | 100 |"].join("\n"),
      ),
    );
  });

  it("tables: a long cell wraps inside its column", () => {
    expectGolden(
      "md-table-wrap",
      frameOf(
        [
          "| name | what it does |",
          "| --- | --- |",
          "| grep | searches every file under the folder for a pattern and lists the matching lines |",
          "| ls | lists |",
        ].join("\n"),
      ),
    );
  });

  it("headings: three levels told apart", () => {
    expectGolden("md-headings", frameOf("# Title\n\n## Section\n\n### Detail\n\n#### Minor\n\ntext"));
  });
});
