import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { outsidePaths } from "../../src/agent/approval-rules.js";
import { protectedPathReason } from "../../src/safety/protected-paths.js";
import { gitProgramKeys, safeGitArgs } from "../../src/safety/git-safety.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent0-rules-")));
  dirs.push(d);
  return d;
}

describe("protected paths", () => {
  it("writes that configure programs always ask; ordinary files do not", () => {
    const cwd = "/work/p";
    for (const p of [
      ".git/config",
      ".git/hooks/pre-commit",
      "sub/.git/config",
      ".gitattributes",
      "a/.gitmodules",
      ".agent0/mcp.json",
      ".claude/settings.json",
      ".vscode/tasks.json",
      ".idea/workspace.xml",
      ".bashrc",
      ".envrc",
      "/work/p/.zshrc",
    ])
      expect({ p, asks: protectedPathReason(p, cwd) !== undefined }).toEqual({ p, asks: true });
    for (const p of ["src/main.ts", "README.md", "gitconfig.txt", ".github/workflows/ci.yml", "docs/.gitkeep"])
      expect({ p, asks: protectedPathReason(p, cwd) !== undefined }).toEqual({ p, asks: false });
  });
});

describe("allowlisted reads outside the project", () => {
  it("names absolute paths, .., /proc, option values and symlinks leading out", () => {
    const cwd = tempDir();
    fs.mkdirSync(path.join(cwd, "src"));
    fs.symlinkSync("/etc", path.join(cwd, "etc-link"));
    expect(outsidePaths("cat /etc/passwd", cwd)).toEqual(["/etc/passwd"]);
    expect(outsidePaths("grep -r token ..", cwd)).toEqual([".."]);
    expect(outsidePaths("cat /proc/self/environ", cwd)).toEqual(["/proc/self/environ"]);
    expect(outsidePaths("grep --file=/etc/shadow x", cwd)).toEqual(["/etc/shadow"]);
    expect(outsidePaths("grep -f/etc/shadow x", cwd)).toEqual(["/etc/shadow"]);
    expect(outsidePaths("head etc-link/hostname", cwd)).toEqual(["etc-link/hostname"]);
    expect(outsidePaths("find / -name id_rsa", cwd)).toEqual(["/"]);
    expect(outsidePaths(`git diff --no-index ${os.homedir()}/.bashrc x`, cwd)).toEqual([`${os.homedir()}/.bashrc`]);
  });

  it("lets reads inside the project, git revisions and printed words through", () => {
    const cwd = tempDir();
    fs.mkdirSync(path.join(cwd, "src"));
    for (const c of [
      "ls",
      "cat src/a.ts",
      `cat ${cwd}/src/a.ts`,
      "grep -rn TODO src",
      "git log HEAD~3..HEAD",
      "git show HEAD:src/a.ts",
      "echo /etc/passwd",
      "ls src/../src",
    ])
      expect({ c, out: outsidePaths(c, cwd) }).toEqual({ c, out: [] });
  });
});

describe("repository git config that runs programs", () => {
  it("finds fsmonitor, filters, textconv and diff drivers in the repo's own config; agent0's git neutralises them", async () => {
    const cwd = tempDir();
    execFileSync("git", ["init", "-q"], { cwd });
    expect(await gitProgramKeys(cwd)).toEqual([]);
    execFileSync("git", ["config", "core.fsmonitor", "true"], { cwd });
    expect(await gitProgramKeys(cwd)).toEqual([]); // the built-in daemon, not a program
    for (const [k, v] of [
      ["core.fsmonitor", "./evil"],
      ["filter.lfsx.clean", "./evil"],
      ["diff.pic.textconv", "./evil"],
      ["diff.x.command", "./evil"],
    ])
      execFileSync("git", ["config", k!, v!], { cwd });
    expect((await gitProgramKeys(cwd)).sort()).toEqual([
      "core.fsmonitor",
      "diff.pic.textconv",
      "diff.x.command",
      "filter.lfsx.clean",
    ]);
    const args = await safeGitArgs(cwd);
    expect(args).toContain("core.fsmonitor=false");
    expect(args).toContain("filter.lfsx.clean=");
  });
});

describe("protected paths through every file tool", () => {
  it("an apply_patch touching .git/config asks even in auto-edit, and names the file", async () => {
    const { createApprover } = await import("../../src/agent/approval.js");
    const cwd = tempDir();
    const asked: string[] = [];
    const config = {
      cwd,
      permissionMode: "auto-edit",
      allowedTools: [],
      interactive: true,
    } as unknown as import("../../src/protocol/run-config.js").RunConfig;
    const approve = createApprover(
      config,
      async (req) => {
        asked.push(req.why ?? "");
        return { decision: "deny" };
      },
      () => {},
    );
    const patch = "*** Begin Patch\n*** Add File: .git/config\n+[core]\n*** End Patch\n";
    expect((await approve({ tool: "apply_patch", kind: "edit", args: { patch }, preview: patch })).ok).toBe(false);
    expect(asked[0]).toContain(".git/config is inside .git/");
    expect(await approve({ tool: "write_file", kind: "edit", args: { path: "src/a.ts" }, preview: "" })).toEqual({
      ok: true,
    });
  });
});
