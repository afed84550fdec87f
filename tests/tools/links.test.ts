// Links that lead out (issue 29, part 2): a symlink in the tree followed by a recursive read, a
// hard link to a file outside, and a FIFO, each with a canary outside the project.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { followedLinksReason, outsidePaths } from "../../src/agent/approval-rules.js";
import { makeCtx, project } from "./ctx.js";
import { callTool } from "./call.js";

const CANARY = "CANARY-outside-41ce";

/** `proj/` with `sub/keys` linking to `outside/` (a canary inside), and `notes.txt` hard-linked to `outside/creds`. */
function setup(): string {
  const base = project({
    "outside/id_rsa": `${CANARY}\n`,
    "outside/creds": `${CANARY}\n`,
    "proj/src/a.txt": "PRIVATE inside\n",
  });
  const dir = path.join(base, "proj");
  fs.mkdirSync(path.join(dir, "sub"));
  fs.mkdirSync(path.join(dir, "empty"));
  fs.symlinkSync(path.join(base, "outside"), path.join(dir, "sub", "keys"));
  fs.linkSync(path.join(base, "outside", "creds"), path.join(dir, "notes.txt"));
  return dir;
}

describe("recursive reads that follow links", () => {
  it.each([
    "grep -R PRIVATE .",
    "grep -nR PRIVATE",
    "grep --dereference-recursive x src sub",
    "diff -rN sub empty",
    "diff -r sub empty",
    "find -L . -type f",
    "find . -follow",
    "rg -L x",
    "rg --follow x .",
    "ls -RL",
    "du -L sub",
  ])("%s asks when the tree holds a link leading out", (command) => {
    expect(followedLinksReason(command, setup())).toMatch(/^Follows links that lead out of the project: sub\/keys -> /);
  });

  it.each([
    "grep -r PRIVATE .",
    "diff -r --no-dereference sub empty",
    "find . -type f",
    "rg x",
    "ls -R",
    "cat src/a.txt",
    "grep -R PRIVATE src",
  ])("%s does not follow them (or reads a tree without any): no question", (command) => {
    expect(followedLinksReason(command, setup())).toBeUndefined();
  });

  it("a hard link to a file outside is an outside path for the shell", () => {
    const dir = setup();
    expect(outsidePaths("cat notes.txt", dir)).toEqual(["notes.txt (a hard link to a file outside)"]);
    expect(outsidePaths("cat src/a.txt", dir)).toEqual([]);
  });
});

describe("read_file, edit_file and @ read only regular files of the project", () => {
  it("refuse a hard link whose other name is outside; read one whose names are all inside", async () => {
    const dir = setup();
    fs.linkSync(path.join(dir, "src", "a.txt"), path.join(dir, "src", "b.txt"));
    const ctx = makeCtx(dir);
    const r = await callTool(ctx, "read_file", { path: "notes.txt" });
    expect(r.isError).toBe(true);
    expect(r.content).not.toContain(CANARY);
    expect(r.content).toContain("is a hard link");
    const e = await callTool(ctx, "edit_file", { path: "notes.txt", old_string: CANARY, new_string: "x" });
    expect(e.isError).toBe(true);
    expect(fs.readFileSync(path.join(dir, "..", "outside", "creds"), "utf8")).toBe(`${CANARY}\n`);
    const inside = await callTool(ctx, "read_file", { path: "src/b.txt" });
    expect(inside.content).toContain("PRIVATE inside");
  });

  it("grep_files leaves out a hard link to a file outside, and keeps what is the project's", async () => {
    const dir = setup();
    fs.writeFileSync(path.join(dir, "src", "c.txt"), `${CANARY.slice(0, 6)} inside\n`);
    const r = await callTool(makeCtx(dir), "grep_files", { pattern: "CANARY" });
    expect(r.content).toBe("src/c.txt:1: CANARY inside");
  });

  it("read a package file that a package manager hard-linked from its store (pnpm, bun)", async () => {
    const dir = setup();
    const store = path.join(dir, "..", "store");
    fs.mkdirSync(store);
    fs.writeFileSync(path.join(store, "index.js"), "export const answer = 42;\n");
    fs.mkdirSync(path.join(dir, "node_modules", "pkg"), { recursive: true });
    fs.linkSync(path.join(store, "index.js"), path.join(dir, "node_modules", "pkg", "index.js"));
    const r = await callTool(makeCtx(dir), "read_file", { path: "node_modules/pkg/index.js" });
    expect(r.content).toContain("export const answer = 42;");
  });

  it("refuse a FIFO at once instead of hanging", async () => {
    const dir = project({ "a.txt": "x\n" });
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    // Opening a FIFO for reading blocks until a writer comes: a read that tried would never end
    // (the test's own time-out ends it).
    const r = await callTool(makeCtx(dir), "read_file", { path: "pipe" });
    expect(r.content).toBe("Error: pipe is not a regular file (it is a FIFO); only files are read.");
  });
});
