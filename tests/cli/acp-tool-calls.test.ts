// agent0's tool calls in ACP's terms (agentclientprotocol.com/protocol/tool-calls): kinds, the
// files a call touches, each edit's hunks as ACP diffs, todo_write as a plan.
import { describe, expect, it } from "vitest";
import { fileDiff } from "../../src/tools/files/diff.js";
import { diffContent, planOf, resultContent, toolKind, toolLocations } from "../../src/cli/acp/tool-calls.js";

const CWD = "/work/project";

describe("ACP tool calls", () => {
  it("gives every built-in tool a kind the protocol knows", () => {
    const table: [string, Record<string, unknown>, string][] = [
      ["read_file", {}, "read"],
      ["grep_files", {}, "search"],
      ["glob_files", {}, "search"],
      ["list_files", {}, "search"],
      ["edit_file", {}, "edit"],
      ["create_file", {}, "edit"],
      ["run_shell_command", {}, "execute"],
      ["web_fetch", {}, "fetch"],
      ["todo_write", {}, "think"],
      ["apply_patch", { patch: "*** Begin Patch\n*** Delete File: old.ts\n*** End Patch" }, "delete"],
      ["apply_patch", { patch: "*** Begin Patch\n*** Update File: a.ts\n@@\n-x\n+y\n*** End Patch" }, "edit"],
      ["mcp__github__create_issue", {}, "other"],
    ];
    for (const [name, args, kind] of table) expect([name, toolKind(name, args)]).toEqual([name, kind]);
  });

  it("names the files a call touches, absolute, with read_file's first line", () => {
    expect(toolLocations("read_file", { path: "src/a.ts", offset: 40 }, CWD)).toEqual([
      { path: "/work/project/src/a.ts", line: 40 },
    ]);
    expect(toolLocations("edit_file", { path: "b.ts" }, CWD)).toEqual([{ path: "/work/project/b.ts" }]);
    expect(
      toolLocations("apply_patch", { patch: "*** Add File: n.ts\n+x\n*** Update File: m.ts\n@@\n-a\n+b" }, CWD),
    ).toEqual([{ path: "/work/project/n.ts" }, { path: "/work/project/m.ts" }]);
    expect(toolLocations("run_shell_command", { command: "ls" }, CWD)).toEqual([]);
  });

  it("shows each hunk of an edit as an ACP diff; a new file has no old text", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const after = before.replace("line 2\n", "line two\n").replace("line 19\n", "line nineteen\n");
    const diffs = diffContent(fileDiff("src/a.ts", before, after), CWD);
    expect(diffs).toHaveLength(2);
    expect(diffs[0]).toEqual({
      type: "diff",
      path: "/work/project/src/a.ts",
      oldText: "line 1\nline 2\nline 3\nline 4\nline 5",
      newText: "line 1\nline two\nline 3\nline 4\nline 5",
    });
    expect(diffContent(fileDiff("new.ts", "", "export {};\n"), CWD)).toEqual([
      { type: "diff", path: "/work/project/new.ts", oldText: null, newText: "export {};" },
    ]);
  });

  it("fences a command's output so nothing in it closes the block", () => {
    const [shown] = resultContent({ label: "run x", ok: true, summary: "exit 0", output: "a ``` b" }, CWD);
    expect(shown).toEqual({ type: "content", content: { type: "text", text: "````\na ``` b\n````" } });
  });

  it("turns todo_write's list into plan entries", () => {
    expect(
      planOf({
        todos: [
          { content: "a", status: "completed" },
          { content: "b", status: "in_progress" },
          { content: "c", status: "weird" },
        ],
      }),
    ).toEqual([
      { content: "a", status: "completed", priority: "medium" },
      { content: "b", status: "in_progress", priority: "medium" },
      { content: "c", status: "pending", priority: "medium" },
    ]);
    expect(planOf({})).toBeUndefined();
  });
});
