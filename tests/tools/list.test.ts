import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCtx, project } from "./ctx.js";
import { callTool } from "./call.js";

describe("list_files", () => {
  it("shows a tree, folders first, respecting .gitignore and skipping .git and node_modules", async () => {
    const dir = project({
      ".gitignore": "dist/\n*.log\n!keep.log\n",
      "README.md": "r",
      "src/main.ts": "m",
      "src/util/strings.ts": "s",
      "dist/out.js": "o",
      "debug.log": "d",
      "keep.log": "k",
      "node_modules/pkg/index.js": "p",
      ".git/HEAD": "ref",
      "src/.gitignore": "generated.ts\n",
      "src/generated.ts": "g",
    });
    const result = await callTool(makeCtx(dir), "list_files", {});
    expect(result.content).toBe(
      [
        "./",
        "  src/",
        "    util/",
        "      strings.ts",
        "    .gitignore",
        "    main.ts",
        "  .gitignore",
        "  README.md",
        "  keep.log",
      ].join("\n"),
    );
  });

  it("lists a sub folder to the given depth", async () => {
    const dir = project({ "src/a/b/c.ts": "c", "src/top.ts": "t" });
    const result = await callTool(makeCtx(dir), "list_files", { path: "src", depth: 1 });
    expect(result.content).toBe("src/\n  a/\n  top.ts");
  });

  it("caps the listing with a count of what was left out", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 520; i++) files[`f${String(i).padStart(3, "0")}.txt`] = "";
    const dir = project(files);
    const ctx = makeCtx(dir);
    const result = await callTool(ctx, "list_files", {});
    const lines = result.content.split("\n");
    expect(lines).toHaveLength(502);
    expect(lines[500]).toBe("  f499.txt");
    expect(lines[501]).toBe("[first 500 of 520 entries; list a folder inside it, or less deep]");
    expect(ctx.events.at(-1)).toEqual({
      type: "tool-end",
      id: "call-1",
      display: expect.objectContaining({ ok: true, summary: "520 entries" }),
    });
  });

  it("says an empty folder is empty", async () => {
    const dir = project({});
    fs.mkdirSync(path.join(dir, "void"));
    expect((await callTool(makeCtx(dir), "list_files", { path: "void" })).content).toBe("void/\n  (empty)");
  });

  it("refuses a missing folder, a file, and a path outside the project", async () => {
    const dir = project({ "a.txt": "a" });
    const ctx = makeCtx(dir);
    expect(await callTool(ctx, "list_files", { path: "nope" })).toEqual({
      content: "Error: nope does not exist.",
      isError: true,
    });
    expect(await callTool(ctx, "list_files", { path: "a.txt" })).toEqual({
      content: "Error: a.txt is a file; use read_file to read it.",
      isError: true,
    });
    expect(await callTool(ctx, "list_files", { path: "/" })).toEqual({
      content: `Error: / is outside the project folder ${dir}; file tools only work inside it.`,
      isError: true,
    });
  });
});
