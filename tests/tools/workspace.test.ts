import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveInside } from "../../src/tools/files/workspace.js";
import { tempProject } from "./ctx.js";

const made: (() => void)[] = [];
afterEach(() => made.splice(0).forEach((c) => c()));

function dirWith(files: Record<string, string> = {}): string {
  const p = tempProject(files);
  made.push(p.cleanup);
  return p.dir;
}

describe("resolveInside", () => {
  it("resolves relative and absolute paths inside the project, also ones that do not exist yet", () => {
    const dir = dirWith({ "src/a.ts": "" });
    expect(resolveInside(dir, "src/a.ts")).toMatchObject({
      ok: true,
      abs: path.join(dir, "src/a.ts"),
      rel: "src/a.ts",
    });
    expect(resolveInside(dir, path.join(dir, "new/b.ts"))).toMatchObject({
      ok: true,
      abs: path.join(dir, "new/b.ts"),
      rel: "new/b.ts",
    });
    expect(resolveInside(dir, ".")).toMatchObject({ ok: true, abs: dir, rel: "." });
    expect(resolveInside(dir, "src/../src/a.ts")).toMatchObject({ ok: true, rel: "src/a.ts" });
  });

  it("refuses paths that leave the project", () => {
    const dir = dirWith();
    const refused = (p: string): unknown => ({
      ok: false,
      error: `Error: ${p} is outside the project folder ${dir}; file tools only work inside it.`,
    });
    expect(resolveInside(dir, "..")).toEqual(refused(".."));
    expect(resolveInside(dir, "/etc/passwd")).toEqual(refused("/etc/passwd"));
    expect(resolveInside(dir, `${dir}-sibling/x`)).toEqual(refused(`${dir}-sibling/x`));
  });

  it("follows symlinks: inside stays allowed, escaping is refused, also through dangling links", () => {
    const dir = dirWith({ "real/file.txt": "x" });
    const outside = dirWith();
    fs.symlinkSync(path.join(dir, "real"), path.join(dir, "alias"));
    fs.symlinkSync(outside, path.join(dir, "out"));
    fs.symlinkSync(path.join(outside, "later.txt"), path.join(dir, "dangling"));
    fs.symlinkSync("dangling", path.join(dir, "chain"));
    expect(resolveInside(dir, "alias/file.txt")).toMatchObject({
      ok: true,
      abs: path.join(dir, "real/file.txt"),
      rel: "real/file.txt",
    });
    for (const p of ["out", "out/new.txt", "dangling", "chain"]) {
      expect(resolveInside(dir, p)).toEqual({
        ok: false,
        error: `Error: ${p} is outside the project folder ${dir}; file tools only work inside it.`,
      });
    }
  });

  it("works when the project folder itself is reached through a symlink", () => {
    const dir = dirWith({ "a.txt": "" });
    const holder = dirWith();
    const linked = path.join(holder, "proj");
    fs.symlinkSync(dir, linked);
    expect(resolveInside(linked, "a.txt")).toMatchObject({ ok: true, abs: path.join(dir, "a.txt"), rel: "a.txt" });
  });
});
