import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { READ_WHOLE_MAX_BYTES } from "../../src/tools/files/read.js";
import { makeCtx, project, tempProject } from "./ctx.js";
import { callTool } from "./call.js";

describe("read_file", () => {
  it("shows numbered lines like cat -n", async () => {
    const dir = project({ "src/a.ts": "const a = 1;\n\tindented\n" });
    const result = await callTool(makeCtx(dir), "read_file", { path: "src/a.ts" });
    expect(result).toEqual({ content: "     1\tconst a = 1;\n     2\t\tindented" });
  });

  it("pages a long file and says how to read on", async () => {
    const text = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join("\n");
    const dir = project({ "big.txt": text });
    const ctx = makeCtx(dir, { outputLimit: 100_000 });
    const first = await callTool(ctx, "read_file", { path: "big.txt" });
    const lines = first.content.split("\n");
    expect(lines).toHaveLength(2001);
    expect(lines[1999]).toBe("  2000\tline 2000");
    expect(lines[2000]).toBe("[showing lines 1-2000 of 2500; call read_file with offset=2001 to read on]");

    const next = await callTool(ctx, "read_file", { path: "big.txt", offset: 2499 });
    expect(next.content).toBe("  2499\tline 2499\n  2500\tline 2500\n[showing lines 2499-2500 of 2500]");
  });

  it("reads a page of a file too big to hold by streaming it, never loading it whole", async () => {
    // The case is a 500 MB log; a file just past the threshold takes the same path.
    const line = (i: number) => `${String(i).padStart(7, "0")} ${"log entry ".repeat(6)}`;
    const count = Math.ceil(READ_WHOLE_MAX_BYTES / line(0).length) + 1000;
    const dir = project({});
    const file = path.join(dir, "huge.log");
    const fd = fs.openSync(file, "w");
    for (let i = 1; i <= count; i += 10_000) {
      const block = Array.from({ length: Math.min(10_000, count - i + 1) }, (_, k) => line(i + k)).join("\n");
      fs.writeSync(fd, `${block}\n`);
    }
    fs.closeSync(fd);
    // Whole files are read through a FileHandle (tools/files/regular-file.ts): that read must not happen.
    const probe = await fs.promises.open(file, "r");
    const handleProto = Object.getPrototypeOf(probe) as { readFile: () => Promise<Buffer> };
    await probe.close();
    const whole = vi.spyOn(handleProto, "readFile");
    try {
      const ctx = makeCtx(dir, { outputLimit: 100_000 });
      const r = await callTool(ctx, "read_file", { path: "huge.log", offset: count - 1, limit: 5 });
      expect(r.content).toBe(
        `${String(count - 1).padStart(6)}\t${line(count - 1)}\n${String(count).padStart(6)}\t${line(count)}\n` +
          `[showing lines ${count - 1}-${count} of ${count}]`,
      );
      expect(whole).not.toHaveBeenCalled();
      // From the top, it says where to read on.
      const head = await callTool(ctx, "read_file", { path: "huge.log", limit: 2 });
      expect(head.content).toContain(`[showing lines 1-2 of ${count}; call read_file with offset=3 to read on]`);
    } finally {
      whole.mockRestore();
    }
  });

  it("keeps a page under the output limit instead of letting it be cut in the middle", async () => {
    const text = Array.from({ length: 300 }, (_, i) => `${i + 1} ${"x".repeat(90)}`).join("\n");
    const dir = project({ "wide.txt": text });
    const result = await callTool(makeCtx(dir, { outputLimit: 5000 }), "read_file", { path: "wide.txt" });
    expect(result.content).not.toContain("chars truncated");
    expect(result.content.length).toBeLessThanOrEqual(5000);
    expect(result.content).toMatch(/\n\[showing lines 1-\d+ of 300; call read_file with offset=\d+ to read on\]$/);
  });

  it("says offset and limit are respected", async () => {
    const dir = project({ "f.txt": "a\nb\nc\nd\n" });
    const result = await callTool(makeCtx(dir), "read_file", { path: "f.txt", offset: 2, limit: 2 });
    expect(result.content).toBe(
      "     2\tb\n     3\tc\n[showing lines 2-3 of 4; call read_file with offset=4 to read on]",
    );
  });

  it("reports an offset past the end", async () => {
    const dir = project({ "f.txt": "a\nb\n" });
    const result = await callTool(makeCtx(dir), "read_file", { path: "f.txt", offset: 9 });
    expect(result).toEqual({ content: "Error: offset 9 is past the end of f.txt (2 lines).", isError: true });
  });

  it("reports a missing file, naming similar files", async () => {
    const dir = project({ "src/parser.ts": "x" });
    const ctx = makeCtx(dir);
    expect(await callTool(ctx, "read_file", { path: "src/parsr.ts" })).toEqual({
      content: "Error: src/parsr.ts does not exist. Did you mean: src/parser.ts?",
      isError: true,
    });
    expect(await callTool(ctx, "read_file", { path: "nowhere/x.ts" })).toEqual({
      content: "Error: nowhere/x.ts does not exist.",
      isError: true,
    });
  });

  it("refuses a binary file", async () => {
    const dir = project({ "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]) });
    const result = await callTool(makeCtx(dir), "read_file", { path: "logo.png" });
    expect(result).toEqual({ content: "Error: logo.png is a binary file; read_file only reads text.", isError: true });
  });

  it("refuses a folder", async () => {
    const dir = project({ "src/a.ts": "x" });
    const result = await callTool(makeCtx(dir), "read_file", { path: "src" });
    expect(result).toEqual({ content: "Error: src is a folder; use list_files to see what it holds.", isError: true });
  });

  it("refuses a path outside the project", async () => {
    const dir = project({});
    const result = await callTool(makeCtx(dir), "read_file", { path: "../../etc/passwd" });
    expect(result).toEqual({
      content: `Error: ../../etc/passwd is outside the project folder ${dir}; file tools only work inside it.`,
      isError: true,
    });
  });

  it("refuses a symlink that escapes the project", async () => {
    const dir = project({});
    const outside = tempProject({ "secret.txt": "top secret" });
    try {
      fs.symlinkSync(path.join(outside.dir, "secret.txt"), path.join(dir, "link.txt"));
      const result = await callTool(makeCtx(dir), "read_file", { path: "link.txt" });
      expect(result).toEqual({
        content: `Error: link.txt is outside the project folder ${dir}; file tools only work inside it.`,
        isError: true,
      });
    } finally {
      outside.cleanup();
    }
  });

  it("says an empty file is empty", async () => {
    const dir = project({ "empty.txt": "" });
    expect(await callTool(makeCtx(dir), "read_file", { path: "empty.txt" })).toEqual({
      content: "empty.txt is empty.",
    });
  });

  it("emits tool-start and a tool-end with a line count", async () => {
    const dir = project({ "a.txt": "1\n2\n3\n" });
    const ctx = makeCtx(dir);
    await callTool(ctx, "read_file", { path: "a.txt" });
    expect(ctx.events).toEqual([
      { type: "tool-start", id: "call-1", name: "read_file", args: { path: "a.txt" }, label: "read a.txt" },
      { type: "tool-end", id: "call-1", display: expect.objectContaining({ ok: true, summary: "3 lines" }) },
    ]);
  });
});
