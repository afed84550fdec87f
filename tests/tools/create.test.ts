import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCtx, project, tempProject } from "./ctx.js";
import { callTool } from "./call.js";

const NEW_FILE_DIFF =
  "--- /dev/null\n+++ src/new/hello.ts\n@@ -0,0 +1,2 @@\n+export const hi = 1;\n+export const ho = 2;\n";

describe("create_file", () => {
  it("asks with the diff, calls beforeWrite, creates parent folders and returns the diff", async () => {
    const dir = project();
    const ctx = makeCtx(dir);
    const content = "export const hi = 1;\nexport const ho = 2;\n";
    const result = await callTool(ctx, "create_file", { path: "src/new/hello.ts", content });

    expect(result).toEqual({
      content: "Created src/new/hello.ts (2 lines).",
      diff: NEW_FILE_DIFF,
      path: "src/new/hello.ts",
    });
    expect(fs.readFileSync(path.join(dir, "src/new/hello.ts"), "utf8")).toBe(content);
    expect(ctx.approvals).toEqual([
      {
        tool: "create_file",
        kind: "edit",
        args: { path: "src/new/hello.ts", content },
        preview: NEW_FILE_DIFF,
        callId: "call-1",
      },
    ]);
    expect(ctx.beforeWrites).toEqual([path.join(dir, "src/new/hello.ts")]);
    expect(ctx.events.slice(1)).toEqual([
      {
        type: "tool-end",
        id: "call-1",
        display: {
          label: "create src/new/hello.ts",
          ok: true,
          summary: "created (2 lines)",
          path: "src/new/hello.ts",
          diff: NEW_FILE_DIFF,
        },
      },
    ]);
  });

  it("refuses to overwrite, without asking", async () => {
    const dir = project({ "a.txt": "old" });
    const ctx = makeCtx(dir);
    const result = await callTool(ctx, "create_file", { path: "a.txt", content: "new" });
    expect(result).toEqual({
      content: "Error: a.txt already exists; use edit_file or write_file to change it.",
      isError: true,
    });
    expect(fs.readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("old");
    expect(ctx.approvals).toEqual([]);
  });

  it("writes nothing when the user denies, and tells the model why", async () => {
    const dir = project();
    const ctx = makeCtx(dir, { deny: "not now" });
    const result = await callTool(ctx, "create_file", { path: "src/x.ts", content: "x" });
    expect(result).toEqual({ content: "Denied by the user: not now", isError: true });
    expect(fs.existsSync(path.join(dir, "src"))).toBe(false);
    expect(ctx.beforeWrites).toEqual([]);
    expect(ctx.events.at(-1)).toEqual({
      type: "tool-end",
      id: "call-1",
      display: expect.objectContaining({ ok: false, summary: "Denied by the user: not now" }),
    });
  });

  it("refuses a path outside the project", async () => {
    const dir = project();
    const result = await callTool(makeCtx(dir), "create_file", { path: "../escape.txt", content: "x" });
    expect(result).toEqual({
      content: `Error: ../escape.txt is outside the project folder ${dir}; file tools only work inside it.`,
      isError: true,
    });
    expect(fs.existsSync(path.join(dir, "..", "escape.txt"))).toBe(false);
  });

  it("refuses to write through a symlinked folder that leads outside", async () => {
    const dir = project();
    const outside = tempProject();
    try {
      fs.symlinkSync(outside.dir, path.join(dir, "out"));
      const result = await callTool(makeCtx(dir), "create_file", { path: "out/x.txt", content: "x" });
      expect(result).toEqual({
        content: `Error: out/x.txt is outside the project folder ${dir}; file tools only work inside it.`,
        isError: true,
      });
      expect(fs.readdirSync(outside.dir)).toEqual([]);
    } finally {
      outside.cleanup();
    }
  });

  it("refuses to write through a dangling symlink that points outside", async () => {
    const dir = project();
    const outside = tempProject();
    try {
      fs.symlinkSync(path.join(outside.dir, "made.txt"), path.join(dir, "dangling.txt"));
      const result = await callTool(makeCtx(dir), "create_file", { path: "dangling.txt", content: "x" });
      expect(result).toEqual({
        content: `Error: dangling.txt is outside the project folder ${dir}; file tools only work inside it.`,
        isError: true,
      });
      expect(fs.existsSync(path.join(outside.dir, "made.txt"))).toBe(false);
    } finally {
      outside.cleanup();
    }
  });
});
