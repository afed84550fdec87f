import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCtx, project } from "./ctx.js";
import { callTool } from "./call.js";

const SOURCE = "function add(a, b) {\n  return a + b;\n}\n";
const EDIT_DIFF =
  "--- math.js\n+++ math.js\n@@ -1,3 +1,3 @@\n function add(a, b) {\n-  return a + b;\n+  return a + b + 0;\n }\n";

describe("edit_file", () => {
  it("replaces the one occurrence, asks with the diff first and returns it", async () => {
    const dir = project({ "math.js": SOURCE });
    const ctx = makeCtx(dir);
    const args = { path: "math.js", old_string: "return a + b;", new_string: "return a + b + 0;" };
    const result = await callTool(ctx, "edit_file", args);

    expect(result).toEqual({
      content: `Edited math.js: replaced 1 occurrence.\n${EDIT_DIFF.slice(EDIT_DIFF.indexOf("@@"))}`,
      diff: EDIT_DIFF,
      path: "math.js",
    });
    expect(fs.readFileSync(path.join(dir, "math.js"), "utf8")).toBe(SOURCE.replace("a + b;", "a + b + 0;"));
    expect(ctx.approvals).toEqual([{ tool: "edit_file", kind: "edit", args, preview: EDIT_DIFF, callId: "call-1" }]);
    expect(ctx.beforeWrites).toEqual([path.join(dir, "math.js")]);
    expect(ctx.events.at(-1)).toEqual({
      type: "tool-end",
      id: "call-1",
      display: expect.objectContaining({ ok: true, summary: "+1 -1" }),
    });
  });

  it("says when old_string is not found", async () => {
    const dir = project({ "math.js": SOURCE });
    const result = await callTool(makeCtx(dir), "edit_file", {
      path: "math.js",
      old_string: "return a - b;",
      new_string: "x",
    });
    expect(result).toEqual({
      content:
        "Error: old_string in math.js was not found. " +
        'It is close to the file\'s text, but "-" and "+" differ, which changes what the code does. ' +
        "The closest region (lines 1-3) is:\n" +
        "     1\tfunction add(a, b) {\n     2\t  return a + b;\n     3\t}\n" +
        "Copy old_string exactly from it (without the line numbers).",
      isError: true,
    });
  });

  it("says how often an ambiguous old_string occurs and how to make it unique", async () => {
    const dir = project({ "twice.txt": "x = 1\ny = 2\nx = 1\n" });
    const ctx = makeCtx(dir);
    const result = await callTool(ctx, "edit_file", { path: "twice.txt", old_string: "x = 1", new_string: "x = 3" });
    expect(result).toEqual({
      content:
        "Error: old_string in twice.txt matches 2 places (lines 1, 3). Add surrounding lines to make it unique, or set replace_all to true.",
      isError: true,
    });
    expect(fs.readFileSync(path.join(dir, "twice.txt"), "utf8")).toBe("x = 1\ny = 2\nx = 1\n");
    expect(ctx.approvals).toEqual([]);
  });

  it("replaces every occurrence with replace_all, keeping $ patterns literal", async () => {
    const dir = project({ "twice.txt": "x = 1\ny = 2\nx = 1\n" });
    const result = await callTool(makeCtx(dir), "edit_file", {
      path: "twice.txt",
      old_string: "x = 1",
      new_string: "x = $&",
      replace_all: true,
    });
    expect(result.content.split("\n")[0]).toBe("Edited twice.txt: replaced 2 occurrences.");
    expect(fs.readFileSync(path.join(dir, "twice.txt"), "utf8")).toBe("x = $&\ny = 2\nx = $&\n");
  });

  it("matches text written with \\n in a file with CRLF line ends", async () => {
    const dir = project({ "win.txt": "one\r\ntwo\r\nthree\r\n" });
    await callTool(makeCtx(dir), "edit_file", { path: "win.txt", old_string: "one\ntwo", new_string: "one\n2" });
    expect(fs.readFileSync(path.join(dir, "win.txt"), "utf8")).toBe("one\r\n2\r\nthree\r\n");
  });

  it("writes nothing when the user denies", async () => {
    const dir = project({ "math.js": SOURCE });
    const ctx = makeCtx(dir, { deny: "use a different name" });
    const result = await callTool(ctx, "edit_file", { path: "math.js", old_string: "add", new_string: "sum" });
    expect(result).toEqual({ content: "Denied by the user: use a different name", isError: true });
    expect(fs.readFileSync(path.join(dir, "math.js"), "utf8")).toBe(SOURCE);
    expect(ctx.beforeWrites).toEqual([]);
  });

  it("reports a missing file, a binary file and a path outside the project", async () => {
    const dir = project({ "blob.bin": Buffer.from([1, 0, 2]) });
    const ctx = makeCtx(dir);
    expect(await callTool(ctx, "edit_file", { path: "gone.js", old_string: "a", new_string: "b" })).toEqual({
      content: "Error: gone.js does not exist.",
      isError: true,
    });
    expect(await callTool(ctx, "edit_file", { path: "blob.bin", old_string: "a", new_string: "b" })).toEqual({
      content: "Error: blob.bin is a binary file; edit_file only changes text.",
      isError: true,
    });
    expect(await callTool(ctx, "edit_file", { path: "/etc/hosts", old_string: "a", new_string: "b" })).toEqual({
      content: `Error: /etc/hosts is outside the project folder ${dir}; file tools only work inside it.`,
      isError: true,
    });
  });

  it("refuses an empty old_string and a no-op edit", async () => {
    const dir = project({ "a.txt": "a" });
    const ctx = makeCtx(dir);
    expect((await callTool(ctx, "edit_file", { path: "a.txt", old_string: "", new_string: "b" })).content).toBe(
      "Error: old_string in a.txt is empty. To add text, include a nearby line in old_string; for a whole file use write_file.",
    );
    expect((await callTool(ctx, "edit_file", { path: "a.txt", old_string: "a", new_string: "a" })).content).toBe(
      "Error: old_string in a.txt and new_string are the same; nothing would change.",
    );
  });

  it("suggests write_file after the second failed edit in a row of a small file, not the first", async () => {
    const dir = project({ "math.js": SOURCE, "other.js": SOURCE });
    const ctx = makeCtx(dir);
    const miss = { path: "math.js", old_string: "return a * b;", new_string: "return a * b * 1;" };
    const first = await callTool(ctx, "edit_file", miss);
    expect(first.content).not.toContain("write_file");
    // Another file's failure does not count toward this one's.
    await callTool(ctx, "edit_file", { ...miss, path: "other.js" });
    const second = await callTool(ctx, "multi_edit", { path: "math.js", edits: [miss] });
    expect(second.isError).toBe(true);
    expect(second.content).toContain(
      "Edits of math.js failed 2 times in a row. It is a small file: read it, then write it whole with write_file",
    );
    // An edit that applies starts the count again.
    await callTool(ctx, "edit_file", { path: "math.js", old_string: "return a + b;", new_string: "return b + a;" });
    expect((await callTool(ctx, "edit_file", miss)).content).not.toContain("write_file");
  });
});
