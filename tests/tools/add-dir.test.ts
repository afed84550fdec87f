// `--add-dir` (Claude Code's flag: "additional working directories for Claude to access"): a folder
// the tools may use by the project's rules. Written as the attacks: a model that climbs out of the
// added folder with `..` or through a symlink must not reach the canary beside it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCtx, project, type TestContext } from "./ctx.js";
import { callTool } from "./call.js";
import { resolveInside } from "../../src/tools/files/workspace.js";
import { outsidePaths } from "../../src/agent/approval-rules.js";
import { protectedPathReason } from "../../src/safety/protected-paths.js";
import { sandboxArgv } from "../../src/tools/shell/sandbox.js";
import { projectSecretValues } from "../../src/safety/secret-files.js";
import { resolveAddDirs } from "../../src/context/add-dirs.js";

const CANARY = "CANARY-add-dir-51c2";

function setup(): { proj: string; extra: string; outside: string; ctx: TestContext } {
  const base = project({
    "proj/README.md": "project\n",
    "extra/notes.txt": "shared notes\n",
    "extra/lib/util.ts": "export const x = 1;\n",
    "extra/.env": "EXTRA_TOKEN=tok-9e8d7c6b5a\n",
    "outside/canary.txt": `${CANARY}\n`,
  });
  const proj = path.join(base, "proj");
  const extra = path.join(base, "extra");
  const outside = path.join(base, "outside");
  fs.symlinkSync(outside, path.join(extra, "out"));
  fs.mkdirSync(path.join(extra, ".claude"));
  const ctx = makeCtx(proj);
  ctx.config.addDirs = [extra];
  return { proj, extra, outside, ctx };
}

describe("--add-dir: an added folder by the project's rules", () => {
  it("resolves a path in the added folder, named by its absolute path", () => {
    const { proj, extra } = setup();
    const file = path.join(extra, "lib/util.ts");
    expect(resolveInside({ cwd: proj, addDirs: [extra] }, file)).toEqual({
      ok: true,
      abs: file,
      rel: file,
      root: extra,
      inRoot: "lib/util.ts",
    });
    // Relative to the project, `../extra/…` is the same folder.
    expect(resolveInside({ cwd: proj, addDirs: [extra] }, "../extra/notes.txt")).toMatchObject({
      ok: true,
      root: extra,
    });
    // Without --add-dir, it is outside.
    expect(resolveInside(proj, file)).toMatchObject({ ok: false });
  });

  it("refuses `..` out of the added folder and a symlink leading out of it", async () => {
    const { proj, extra, ctx } = setup();
    for (const p of [path.join(extra, "../outside/canary.txt"), path.join(extra, "out/canary.txt")]) {
      expect(resolveInside({ cwd: proj, addDirs: [extra] }, p)).toMatchObject({ ok: false });
      const read = await callTool(ctx, "read_file", { path: p });
      expect(read.isError).toBe(true);
      expect(read.content).toMatch(/is outside the project folder .* or the added folders/);
      expect(read.content).not.toContain(CANARY);
      const write = await callTool(ctx, "write_file", { path: p, content: "overwritten" });
      expect(write.isError).toBe(true);
    }
    expect(fs.readFileSync(path.join(extra, "../outside/canary.txt"), "utf8")).toBe(`${CANARY}\n`);
    // Searching the added folder does not descend through the link either.
    const grep = await callTool(ctx, "grep_files", { pattern: "CANARY", path: extra });
    expect(grep.content).not.toContain(CANARY);
    const glob = await callTool(ctx, "glob_files", { pattern: "**/*.txt", path: extra });
    expect(glob.content.split("\n")).toEqual([path.join(extra, "notes.txt")]);
  });

  it("reads, edits and searches files there, with the project's approval", async () => {
    const { extra, ctx } = setup();
    const notes = path.join(extra, "notes.txt");
    expect((await callTool(ctx, "read_file", { path: notes })).content).toContain("shared notes");
    const edit = await callTool(ctx, "edit_file", { path: notes, old_string: "shared", new_string: "common" });
    expect(edit.isError).toBeFalsy();
    expect(fs.readFileSync(notes, "utf8")).toBe("common notes\n");
    expect(ctx.approvals.map((a) => a.kind)).toEqual(["edit"]);
    expect(ctx.beforeWrites).toEqual([notes]);
    const grep = await callTool(ctx, "grep_files", { pattern: "const x", path: extra });
    expect(grep.content).toContain(`${path.join(extra, "lib/util.ts")}:1:`);
  });

  it("keeps its control folders protected and its secret files masked", async () => {
    const { proj, extra, ctx } = setup();
    expect(protectedPathReason(path.join(extra, ".claude/settings.json"), proj)).toMatch(/inside \.claude\//);
    expect(protectedPathReason(path.join(extra, ".git/hooks/pre-commit"), proj)).toMatch(/inside \.git\//);
    expect(projectSecretValues(proj, [extra])).toContain("tok-9e8d7c6b5a");
    const read = await callTool(ctx, "read_file", { path: path.join(extra, ".env") });
    expect(read.content).not.toContain("tok-9e8d7c6b5a");
  });

  it("counts as inside for read-only shell commands; a link out of it does not", () => {
    const { proj, extra } = setup();
    expect(outsidePaths(`cat ${extra}/notes.txt`, proj, [extra])).toEqual([]);
    expect(outsidePaths(`cat ${extra}/notes.txt`, proj)).toEqual([`${extra}/notes.txt`]);
    expect(outsidePaths(`cat ${extra}/out/canary.txt`, proj, [extra])).toEqual([`${extra}/out/canary.txt`]);
  });

  it("is writable in the sandbox, its control folders read-only", () => {
    const { proj, extra } = setup();
    const { args } = sandboxArgv(["true"], proj, {}, [extra]);
    const line = args.join(" ");
    expect(line).toContain(`--bind ${extra} ${extra}`);
    expect(line).toContain(`--ro-bind ${path.join(extra, ".claude")} ${path.join(extra, ".claude")}`);
    // The control folder is mounted after (over) the writable bind.
    expect(line.indexOf(`--ro-bind ${path.join(extra, ".claude")}`)).toBeGreaterThan(line.indexOf(`--bind ${extra}`));
  });

  it("a missing path or a file is an error at start", () => {
    const { proj, extra } = setup();
    expect(resolveAddDirs(["../extra", extra], proj)).toEqual([extra]);
    expect(() => resolveAddDirs(["../nope"], proj)).toThrow(`--add-dir ../nope: no such folder`);
    expect(() => resolveAddDirs(["README.md"], proj)).toThrow(`--add-dir README.md: not a folder`);
  });
});

// Issue 40: a folder whose name starts with a root's name is not inside it. A prefix test
// (`real.startsWith(root)`) in place of the confinement passed every case above: these go red.
describe("sibling folders that share a root's prefix (`<root>-other`)", () => {
  const tree = () => {
    const base = project({
      "proj/a.txt": "a\n",
      "proj-other/canary.txt": `${CANARY}\n`,
      "extra/b.txt": "b\n",
      "extra-other/canary.txt": `${CANARY}\n`,
      "cfg/memory/.keep": "",
      "cfg-other/memory/leak.md": `${CANARY}\n`,
    });
    return { base, proj: path.join(base, "proj"), extra: path.join(base, "extra") };
  };

  it("the project: ../proj-other is outside", () => {
    const { proj } = tree();
    expect(resolveInside(proj, "a.txt").ok).toBe(true);
    expect(resolveInside(proj, "../proj-other/canary.txt").ok).toBe(false);
    expect(resolveInside(proj, path.join(proj + "-other", "canary.txt")).ok).toBe(false);
  });

  it("an added folder: <added>-other is outside", () => {
    const { proj, extra } = tree();
    const ws = { cwd: proj, addDirs: [extra] };
    expect(resolveInside(ws, path.join(extra, "b.txt")).ok).toBe(true);
    expect(resolveInside(ws, path.join(extra + "-other", "canary.txt")).ok).toBe(false);
    expect(resolveInside(ws, `${extra}/../extra-other/canary.txt`).ok).toBe(false);
  });

  it("memory: a memory folder linked to <config>-other is refused", async () => {
    const { base } = tree();
    const { confinedMemoryDir } = await import("../../src/context/memory.js");
    const cfg = path.join(base, "cfg");
    fs.rmSync(path.join(cfg, "memory"), { recursive: true });
    fs.symlinkSync(path.join(base, "cfg-other", "memory"), path.join(cfg, "memory"));
    expect(() => confinedMemoryDir({ scope: "user", root: cfg, dir: path.join(cfg, "memory") })).toThrow(/leads out/);
  });
});
