// The file tools through an editor's file system (ACP fs/read_text_file, fs/write_text_file):
// reads see the unsaved buffer, writes go to the editor and not the disk, and the path rules
// hold before the editor is asked at all.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ClientFiles } from "../../src/tools/types.js";
import { makeCtx, project } from "./ctx.js";
import { callTool } from "./call.js";

function editor(buffers: Record<string, string>) {
  const reads: string[] = [];
  const writes: { path: string; text: string }[] = [];
  const files: ClientFiles = {
    async read(abs) {
      reads.push(abs);
      const text = buffers[abs];
      if (text === undefined) throw new Error(`no buffer for ${abs}`);
      return text;
    },
    async write(abs, text) {
      writes.push({ path: abs, text });
      buffers[abs] = text;
    },
  };
  return { files, reads, writes };
}

describe("file tools through the client's file system", () => {
  it("read_file shows the editor's unsaved buffer, not the disk", async () => {
    const dir = project({ "a.ts": "const onDisk = 1;\n" });
    const ed = editor({ [path.join(dir, "a.ts")]: "const inBuffer = 2;\n" });
    const result = await callTool({ ...makeCtx(dir), files: ed.files }, "read_file", { path: "a.ts" });
    expect(result.content).toContain("const inBuffer = 2;");
    expect(result.content).not.toContain("onDisk");
    expect(ed.reads).toEqual([path.join(dir, "a.ts")]);
  });

  it("edit_file edits the buffer and writes through the editor; the disk is untouched", async () => {
    const dir = project({ "a.ts": "const x = 1;\n" });
    const abs = path.join(dir, "a.ts");
    const ed = editor({ [abs]: "const x = 1;\nconst unsaved = true;\n" });
    const ctx = { ...makeCtx(dir), files: ed.files };
    const result = await callTool(ctx, "edit_file", { path: "a.ts", old_string: "x = 1", new_string: "x = 2" });
    expect(result.isError).toBeUndefined();
    expect(ed.writes).toEqual([{ path: abs, text: "const x = 2;\nconst unsaved = true;\n" }]);
    expect(fs.readFileSync(abs, "utf8")).toBe("const x = 1;\n");
    // The approval showed the change against the buffer the model saw.
    expect(ctx.approvals[0]!.preview).toContain("+const x = 2;");
    expect(ctx.beforeWrites).toEqual([abs]);
  });

  it("create_file of a new file writes through the editor", async () => {
    const dir = project({});
    const ed = editor({});
    const result = await callTool({ ...makeCtx(dir), files: ed.files }, "create_file", {
      path: "src/new.ts",
      content: "export {};\n",
    });
    expect(result.isError).toBeUndefined();
    expect(ed.writes).toEqual([{ path: path.join(dir, "src", "new.ts"), text: "export {};\n" }]);
    expect(fs.existsSync(path.join(dir, "src", "new.ts"))).toBe(false);
  });

  it("a path outside the project is refused before the editor is asked", async () => {
    const dir = project({ "in.txt": "x\n" });
    const outside = path.join(path.dirname(dir), `canary-${path.basename(dir)}.txt`);
    fs.writeFileSync(outside, "secret\n");
    try {
      const ed = editor({ [outside]: "secret buffer\n" });
      const ctx = { ...makeCtx(dir), files: ed.files };
      const read = await callTool(ctx, "read_file", { path: `../${path.basename(outside)}` });
      const write = await callTool(ctx, "write_file", { path: `../${path.basename(outside)}`, content: "pwned\n" });
      expect(read.isError).toBe(true);
      expect(write.isError).toBe(true);
      expect(read.content).not.toContain("secret");
      expect(ed.reads).toEqual([]);
      expect(ed.writes).toEqual([]);
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });
});
