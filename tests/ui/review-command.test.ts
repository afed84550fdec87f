// /review in the TUI: the change is read by agent0 (a Cmd, answered by a review-diff Msg) and the
// run starts with the diff in its message; with nothing to review the user is told and no run starts.
// The targets are Codex CLI's /review presets (its docs: "Review uncommitted changes", "Review
// against a base branch").
import { describe, expect, it } from "vitest";
import type { Cmd } from "../../src/ui/msg.js";
import type { Model } from "../../src/ui/model.js";
import { feed, key, newModel, typeText } from "./helpers.js";

const DIFF =
  "diff --git a/calc.js b/calc.js\n--- a/calc.js\n+++ b/calc.js\n@@ -1 +1 @@\n-return a + b;\n+return a - b;\n";

function submit(line: string) {
  return feed(newModel(), ...typeText(line), key("enter"));
}

describe("/review", () => {
  it("asks for the staged diff, then sends it to the model", () => {
    const asked = submit("/review staged");
    const read = asked.cmds.find((c): c is Extract<Cmd, { type: "review-diff" }> => c.type === "review-diff");
    expect(read).toEqual({ type: "review-diff", target: { kind: "staged" }, typed: "/review staged" });
    const { model, cmds } = feed(asked.model, {
      type: "review-diff",
      target: read!.target,
      typed: read!.typed,
      diff: { ok: true, diff: DIFF },
    });
    const run = cmds.find((c) => c.type === "worker" && c.command.type === "run");
    expect(run).toBeDefined();
    const sent = run!.type === "worker" && run!.command.type === "run" ? run!.command.conversation.at(-1)!.content : "";
    expect(sent).toContain("Review the staged changes");
    expect(sent).toContain("-return a + b;\n+return a - b;");
    expect(model.run).not.toBeNull();
  });

  it("reviews a branch against the base it names, and refuses an option-like base", () => {
    const asked = submit("/review main");
    expect(asked.cmds.find((c) => c.type === "review-diff")).toMatchObject({
      target: { kind: "branch", base: "main" },
    });
    const bad = submit("/review --output=/tmp/x");
    expect(bad.cmds.find((c) => c.type === "review-diff")).toBeUndefined();
    expect(JSON.stringify(bad.model.entries.at(-1))).toContain("not a branch or commit");
  });

  it("says so when there is nothing to review, and starts no run", () => {
    const { model, cmds } = feed(newModel(), {
      type: "review-diff",
      target: { kind: "working" },
      typed: "/review",
      diff: { ok: false, error: "nothing to review: no changes in the working tree's changes (staged and unstaged)" },
    });
    expect(cmds.some((c) => c.type === "worker")).toBe(false);
    expect(model.run).toBeNull();
    expect(JSON.stringify(model.entries.at(-1))).toContain("nothing to review");
  });

  // Claude Code users keep a `.claude/commands/review.md`; theirs runs, not the built-in.
  it("yields to a user's own /review command", () => {
    const skill = {
      name: "review",
      description: "",
      params: [],
      template: "Review $ARGUMENTS carefully.",
      format: "command",
      source: "review.md",
      scope: "project",
    } as const;
    const model = { ...newModel(), skills: [skill as unknown as Model["skills"][number]] };
    const { cmds } = feed(model, ...typeText("/review src/a.ts"), key("enter"));
    expect(cmds.some((c) => c.type === "review-diff")).toBe(false);
    expect(cmds.some((c) => c.type === "worker" && c.command.type === "run")).toBe(true);
  });
});
