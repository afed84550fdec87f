// The apply_patch format as openai/codex documents it for its models
// (codex-rs/apply-patch/apply_patch_tool_instructions.md) and gpt-oss writes it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCtx, project, type TestContext } from "./ctx.js";
import { runToolCall } from "../../src/agent/tool-call.js";
import { applyPatchTool } from "../../src/tools/files/apply-patch.js";
import { recoverToolCalls } from "../../src/agent/replies/text-tool-calls.js";

const call = (ctx: TestContext, patch: string) =>
  runToolCall({ id: "p1", name: "apply_patch", args: { patch } }, [applyPatchTool], ctx);
const read = (dir: string, f: string) => fs.readFileSync(path.join(dir, f), "utf8");

const PY = "def greet(name):\n    print('hi', name)\n    return name\n\n\ndef bye():\n    pass\n";

describe("apply_patch", () => {
  it("updates, adds and deletes files in one patch", async () => {
    const dir = project({ "app.py": PY, "old.txt": "gone\n" });
    const ctx = makeCtx(dir);
    const patch = [
      "*** Begin Patch",
      "*** Update File: app.py",
      "@@ def greet(name):",
      "-    print('hi', name)",
      "+    print('hello', name)",
      "     return name",
      "*** Add File: docs/notes.md",
      "+# Notes",
      "+first",
      "*** Delete File: old.txt",
      "*** End Patch",
    ].join("\n");
    const r = await call(ctx, patch);
    expect(r.isError).toBeUndefined();
    expect(read(dir, "app.py")).toBe(PY.replace("'hi'", "'hello'"));
    expect(read(dir, "docs/notes.md")).toBe("# Notes\nfirst\n");
    expect(fs.existsSync(path.join(dir, "old.txt"))).toBe(false);
    expect(ctx.approvals.map((a) => a.preview.split("\n")[0])).toEqual(["--- app.py", "--- /dev/null", "--- old.txt"]);
  });

  it("places a hunk whose context is indented differently (the edit cascade's fuzz)", async () => {
    const dir = project({ "app.py": PY });
    const patch = "*** Begin Patch\n*** Update File: app.py\n@@\n def bye():\n-  pass\n+  return None\n*** End Patch";
    const r = await call(makeCtx(dir), patch);
    expect(r.content).toContain("matched by: indentation-flexible");
    expect(read(dir, "app.py")).toBe(PY.replace("    pass", "    return None"));
  });

  it("writes nothing when one file of the patch cannot be applied", async () => {
    const dir = project({ "app.py": PY });
    const patch = [
      "*** Begin Patch",
      "*** Add File: new.txt",
      "+x",
      "*** Update File: app.py",
      "@@",
      "-    print('nowhere')",
      "+    print('x')",
      "*** End Patch",
    ].join("\n");
    const r = await call(makeCtx(dir), patch);
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^Error: nothing was changed: app\.py: old_string was not found/);
    expect(fs.existsSync(path.join(dir, "new.txt"))).toBe(false);
    expect(read(dir, "app.py")).toBe(PY);
  });

  it("is recovered from a gpt-oss reply's text, when the model has the tool", () => {
    const patch = "*** Begin Patch\n*** Update File: app.py\n@@\n-a\n+b\n*** End Patch";
    const text = `I'll apply this change:\n\n\`\`\`\n${patch}\n\`\`\``;
    expect(recoverToolCalls(text, ["read_file", "apply_patch"]).calls).toEqual([
      { name: "apply_patch", args: { patch } },
    ]);
    expect(recoverToolCalls(text, ["read_file"]).calls).toEqual([]);
  });
});
