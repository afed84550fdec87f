import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCtx, project } from "./ctx.js";
import { callTool } from "./call.js";

const read = (dir: string, f: string) => fs.readFileSync(path.join(dir, f));

describe("write_file", () => {
  it("creates a new file", async () => {
    const dir = project();
    const ctx = makeCtx(dir);
    const r = await callTool(ctx, "write_file", { path: "src/a.ts", content: "export {};\n" });
    expect(r.content).toBe("Created src/a.ts (1 line).");
    expect(read(dir, "src/a.ts").toString()).toBe("export {};\n");
  });

  it("refuses to overwrite a file not read this session; after read_file it works; after an outside change it refuses", async () => {
    const dir = project({ "a.txt": "one\n" });
    const ctx = makeCtx(dir);
    expect(await callTool(ctx, "write_file", { path: "a.txt", content: "two\n" })).toEqual({
      content:
        "Error: a.txt exists and you have not read it in this session; read it (read_file) before overwriting it, or use edit_file.",
      isError: true,
    });
    expect(ctx.approvals).toEqual([]);
    await callTool(ctx, "read_file", { path: "a.txt" });
    const ok = await callTool(ctx, "write_file", { path: "a.txt", content: "two\n" });
    expect(ok.content).toBe("Wrote a.txt (1 line).");
    expect(ctx.approvals[0]!.preview).toBe("--- a.txt\n+++ a.txt\n@@ -1,1 +1,1 @@\n-one\n+two\n");
    // Its own write counts as seen: a second write needs no new read.
    expect((await callTool(ctx, "write_file", { path: "a.txt", content: "three\n" })).content).toBe(
      "Wrote a.txt (1 line).",
    );
    fs.writeFileSync(path.join(dir, "a.txt"), "the user's own edit\n");
    expect(await callTool(ctx, "write_file", { path: "a.txt", content: "four\n" })).toEqual({
      content: "Error: a.txt changed since you read it; read it again (read_file) before changing it.",
      isError: true,
    });
    expect(read(dir, "a.txt").toString()).toBe("the user's own edit\n");
    // edit_file refuses the stale picture too.
    const edit = await callTool(ctx, "edit_file", { path: "a.txt", old_string: "user's", new_string: "model's" });
    expect(edit.content).toBe("Error: a.txt changed since you read it; read it again (read_file) before changing it.");
  });

  it("keeps a CRLF file CRLF, its BOM and its mode", async () => {
    const dir = project({ "w.txt": Buffer.from("\uFEFFone\r\ntwo\r\n", "utf8") });
    fs.chmodSync(path.join(dir, "w.txt"), 0o751);
    const ctx = makeCtx(dir);
    await callTool(ctx, "read_file", { path: "w.txt" });
    await callTool(ctx, "write_file", { path: "w.txt", content: "uno\ndos\n" });
    expect(read(dir, "w.txt").toString()).toBe("\uFEFFuno\r\ndos\r\n");
    expect(fs.statSync(path.join(dir, "w.txt")).mode & 0o777).toBe(0o751);
  });
});

describe("multi_edit", () => {
  it("applies every edit in order, each to the result of the one before", async () => {
    const dir = project({ "m.py": "a = 1\nb = 2\nc = 3\n" });
    const ctx = makeCtx(dir);
    const r = await callTool(ctx, "multi_edit", {
      path: "m.py",
      edits: [
        { old_string: "a = 1", new_string: "a = 10" },
        { old_string: "a = 10\nb = 2", new_string: "a = 10\nb = 20" },
      ],
    });
    expect(r.content.split("\n")[0]).toBe("Edited m.py: applied 2 edits.");
    expect(read(dir, "m.py").toString()).toBe("a = 10\nb = 20\nc = 3\n");
    expect(ctx.approvals).toHaveLength(1);
  });

  it("writes nothing when one edit cannot be applied", async () => {
    const dir = project({ "m.py": "a = 1\nb = 2\n" });
    const ctx = makeCtx(dir);
    const r = await callTool(ctx, "multi_edit", {
      path: "m.py",
      edits: [
        { old_string: "a = 1", new_string: "a = 10" },
        { old_string: "zzz = 9", new_string: "q" },
      ],
    });
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^Error: m\.py was not changed: edit 2: old_string was not found\./);
    expect(read(dir, "m.py").toString()).toBe("a = 1\nb = 2\n");
    expect(ctx.approvals).toEqual([]);
  });
});

describe("edit_file keeps the bytes it did not change", () => {
  it("edits a Latin-1 file byte-exactly", async () => {
    // "café = 1\nnaïve = 2\n" in ISO-8859-1: é = 0xE9, ï = 0xEF (not valid UTF-8).
    const latin1 = Buffer.from("café = 1\nnaïve = 2\nno final newline", "latin1");
    const dir = project({ "l.txt": latin1 });
    const ctx = makeCtx(dir);
    const shown = await callTool(ctx, "read_file", { path: "l.txt" });
    expect(shown.content).toContain("naïve = 2");
    await callTool(ctx, "edit_file", { path: "l.txt", old_string: "naïve = 2", new_string: "naïve = 3" });
    expect(read(dir, "l.txt")).toEqual(Buffer.from("café = 1\nnaïve = 3\nno final newline", "latin1"));
    const wide = await callTool(ctx, "edit_file", { path: "l.txt", old_string: "café", new_string: "café ☕" });
    expect(wide.isError).toBe(true);
    expect(wide.content).toMatch(/not UTF-8.*cannot hold ☕/);
  });

  it("reports which strategy matched", async () => {
    const dir = project({ "i.py": "def f():\n    return 1\n" });
    const r = await callTool(makeCtx(dir), "edit_file", {
      path: "i.py",
      old_string: "def f():\n  return 1",
      new_string: "def f():\n  return 2",
    });
    expect(r.content.split("\n")[0]).toBe(
      "Edited i.py: replaced 1 occurrence. old_string did not match exactly; matched by: indentation-flexible. " +
        "Syntax checked by tree-sitter (python) and python3 (ast.parse).",
    );
    expect(read(dir, "i.py").toString()).toBe("def f():\n    return 2\n");
    expect(r.diff).toBe("--- i.py\n+++ i.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n");
  });
});
