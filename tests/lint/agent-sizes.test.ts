// Issue 36 §3, "shorter hearts": no function in src/agent/ is over 120 lines. Measured by the same
// script the closing notes quote (scripts/code-sizes.mjs: a function's lines from its first to its
// last, nested functions included), so the figure a test holds is the figure a reader is told.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const MAX_AGENT_FUNCTION = 120;

describe("the agent's functions stay short", () => {
  it(`no function in src/agent/ is over ${MAX_AGENT_FUNCTION} lines`, () => {
    const out = execFileSync(
      process.execPath,
      ["scripts/code-sizes.mjs", "src/agent", "--functions", String(MAX_AGENT_FUNCTION), "--files", "1000000"],
      { encoding: "utf8" },
    );
    const head = `functions over ${MAX_AGENT_FUNCTION} lines: `;
    // The script ran and measured: its summary line is there (an empty output would pass a bare absence).
    expect(out).toContain(head);
    const listed = out
      .slice(out.indexOf(head))
      .split("\n")
      .slice(1)
      .filter((l) => l.trim() !== "");
    expect(listed).toEqual([]);
  });
});
