import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findRepoRoot, formatGitFacts, gitFacts, headFile, readStatusV2 } from "../../src/context/git.js";
import { tempDir } from "./helpers.js";

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.invalid",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env, encoding: "utf8" });
}

describe("gitFacts", () => {
  it("is undefined outside a repo", async () => {
    const dir = await tempDir();
    expect(await gitFacts(dir)).toBeUndefined();
    expect(findRepoRoot(dir)).toBeUndefined();
  });

  it("follows GIT_DIR from a folder with no .git at or above it", async () => {
    const repo = await tempDir();
    git(repo, "init", "-q", "-b", "elsewhere");
    git(repo, "commit", "-q", "--allow-empty", "-m", "only commit");
    const outside = await tempDir();
    expect(findRepoRoot(outside)).toBeUndefined();
    process.env.GIT_DIR = join(repo, ".git");
    try {
      const facts = await gitFacts(outside, { budgetMs: 30_000 });
      expect(facts?.branch).toBe("elsewhere");
      expect(facts?.commits.map((c) => c.replace(/^[0-9a-f]+ /, ""))).toEqual(["only commit"]);
    } finally {
      delete process.env.GIT_DIR;
    }
  });

  it("reports branch, short status (at most 20 lines) and the last 5 commits", async () => {
    const dir = await tempDir();
    git(dir, "init", "-q", "-b", "trunk");
    for (let i = 1; i <= 6; i++) {
      await writeFile(join(dir, "f.txt"), `v${i}`);
      git(dir, "add", "f.txt");
      git(dir, "commit", "-q", "-m", `commit ${i}`);
    }
    for (let i = 0; i < 23; i++) await writeFile(join(dir, `new${String(i).padStart(2, "0")}.txt`), "x");
    await writeFile(join(dir, "f.txt"), "changed");

    const facts = await gitFacts(dir, { budgetMs: 30_000 });
    expect(facts?.branch).toBe("trunk");
    expect(facts?.status).toHaveLength(20);
    expect(facts?.status[0]).toBe(" M f.txt");
    expect(facts?.moreStatus).toBe(4);
    expect(facts?.commits.map((c) => c.replace(/^[0-9a-f]+ /, ""))).toEqual([
      "commit 6",
      "commit 5",
      "commit 4",
      "commit 3",
      "commit 2",
    ]);
    expect(findRepoRoot(dir)).toBe(dir);

    const text = formatGitFacts(facts!);
    expect(text).toMatch(/^Branch: trunk\nStatus \(git status --short\):\n {3}M f\.txt\n/);
    expect(text).toContain("  … and 4 more\nRecent commits:\n  ");
  });

  it("on a huge index, reports tracked changes only and says untracked files were not looked for", async () => {
    const dir = await tempDir();
    git(dir, "init", "-q", "-b", "main");
    for (const f of ["a.txt", "b.txt", "c.txt"]) await writeFile(join(dir, f), f);
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "three files");
    await writeFile(join(dir, "a.txt"), "changed");
    await writeFile(join(dir, "untracked.txt"), "new");
    const facts = await gitFacts(dir, { hugeIndex: 2, budgetMs: 30_000 });
    expect(facts?.status).toEqual([" M a.txt"]);
    expect(facts?.notes).toEqual(["Untracked files not listed: the repository is large (3 tracked files)."]);
    expect(formatGitFacts(facts!)).toContain("Untracked files not listed");
    // A small index lists them.
    expect((await gitFacts(dir, { budgetMs: 30_000 }))?.status).toEqual([" M a.txt", "?? untracked.txt"]);
  });

  it("keeps to its time budget: what did not come in time is named, never waited for", async () => {
    const dir = await tempDir();
    git(dir, "init", "-q", "-b", "main");
    await writeFile(join(dir, "a.txt"), "x");
    const facts = await gitFacts(dir, { budgetMs: 0 });
    // With no time at all, either nothing was read or git's own calls did not finish.
    expect(facts === undefined || (facts.notes ?? []).some((n) => / not read/.test(n))).toBe(true);
    if (facts) expect(formatGitFacts(facts)).not.toContain("Status: clean");
  });

  it("handles a repo without commits", async () => {
    const dir = await tempDir();
    git(dir, "init", "-q", "-b", "main");
    const facts = await gitFacts(dir, { budgetMs: 30_000 });
    expect(facts).toMatchObject({ branch: "main", status: [], moreStatus: 0, commits: [] });
    expect(formatGitFacts(facts!)).toBe("Branch: main\nStatus: clean\nNo commits yet.");
  });
});

// git-status(1), "Porcelain Format Version 2": what one `status --porcelain=v2 --branch` gives,
// read back into the lines `git status --short` writes (the prompt's form).
describe("readStatusV2", () => {
  it("reads git's own output of every kind of change as --short writes it", async () => {
    const dir = await tempDir();
    git(dir, "init", "-q", "-b", "work");
    for (const f of ["a.txt", "old name.txt", "gone.txt", "both.txt", "staged.txt"])
      await writeFile(join(dir, f), `${f}\n`);
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "start");
    await writeFile(join(dir, "a.txt"), "changed\n");
    git(dir, "mv", "old name.txt", "new name.txt");
    git(dir, "rm", "-q", "gone.txt");
    await writeFile(join(dir, "both.txt"), "staged\n");
    git(dir, "add", "both.txt");
    await writeFile(join(dir, "both.txt"), "and changed again\n");
    await writeFile(join(dir, "added.txt"), "new\n");
    git(dir, "add", "added.txt");
    await writeFile(join(dir, "tab\there.txt"), "odd name\n");
    git(dir, "add", "tab\there.txt");
    const short = git(dir, "status", "--short", "--untracked-files=no").split("\n").filter(Boolean);
    const v2 = readStatusV2(git(dir, "status", "--porcelain=v2", "--branch", "--untracked-files=no"));
    expect(short.length).toBeGreaterThanOrEqual(6);
    expect(v2.changes).toEqual(short);
    expect(v2.branch).toBe("work");
    expect(v2.head).toMatch(/^[0-9a-f]{40}$/);
  });

  it("reads a merge conflict as --short does", async () => {
    const dir = await tempDir();
    git(dir, "init", "-q", "-b", "main");
    await writeFile(join(dir, "c.txt"), "base\n");
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "base");
    git(dir, "checkout", "-q", "-b", "other");
    await writeFile(join(dir, "c.txt"), "other\n");
    git(dir, "commit", "-q", "-am", "other");
    git(dir, "checkout", "-q", "main");
    await writeFile(join(dir, "c.txt"), "main\n");
    git(dir, "commit", "-q", "-am", "main");
    try {
      git(dir, "merge", "-q", "other");
    } catch {
      // the conflict is the point
    }
    const short = git(dir, "status", "--short", "--untracked-files=no").split("\n").filter(Boolean);
    expect(short).toEqual(["UU c.txt"]);
    expect(readStatusV2(git(dir, "status", "--porcelain=v2", "--branch", "--untracked-files=no")).changes).toEqual(
      short,
    );
  });

  it("reads a detached HEAD and a branch without commits", async () => {
    expect(readStatusV2("# branch.oid (initial)\n# branch.head main\n")).toEqual({ branch: "main", changes: [] });
    const sha = "0123456789abcdef0123456789abcdef01234567";
    expect(readStatusV2(`# branch.oid ${sha}\n# branch.head (detached)\n`)).toEqual({ head: sha, changes: [] });
    const dir = await tempDir();
    git(dir, "init", "-q", "-b", "main");
    git(dir, "commit", "-q", "--allow-empty", "-m", "one");
    git(dir, "checkout", "-q", "--detach");
    const facts = await gitFacts(dir, { budgetMs: 30_000 });
    expect(facts?.branch).toBe(`(detached at ${git(dir, "rev-parse", "HEAD").slice(0, 7)})`);
  });

  it("falls back on the HEAD file for the branch when status did not come in time", async () => {
    const gitDir = await tempDir();
    await writeFile(join(gitDir, "HEAD"), "ref: refs/heads/feature/x\n");
    expect(await headFile(gitDir)).toEqual({ branch: "feature/x", changes: [] });
    const sha = "0123456789abcdef0123456789abcdef01234567";
    await writeFile(join(gitDir, "HEAD"), `${sha}\n`);
    expect(await headFile(gitDir)).toEqual({ head: sha, changes: [] });
    expect(await headFile(join(gitDir, "missing"))).toEqual({ changes: [] });
  });
});
