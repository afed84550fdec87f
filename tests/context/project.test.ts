import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTEXT_FILE_CAP, loadInstructionFiles } from "../../src/context/project.js";
import { tempDir, writeTree } from "./helpers.js";

describe("loadInstructionFiles", () => {
  it("finds nothing in an empty folder", async () => {
    const root = await tempDir();
    await mkdir(join(root, "home"));
    await mkdir(join(root, "proj"));
    expect(await loadInstructionFiles(join(root, "proj"), join(root, "home"))).toEqual([]);
  });

  it("reads every kind of instruction file, most general first, each labelled", async () => {
    const root = await tempDir();
    await writeTree(root, {
      "home/.claude/CLAUDE.md": "global rules",
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/AGENTS.md": "root agents",
      "repo/CLAUDE.md": "root claude",
      "repo/pkg/AGENTS.md": "pkg agents",
      "repo/pkg/.agent0/context.md": "agent0 context",
      "repo/pkg/.cursorrules": "cursor rules",
      "repo/pkg/.github/copilot-instructions.md": "copilot rules",
      "outside/AGENTS.md": "above the repo: never read",
    });
    const files = await loadInstructionFiles(join(root, "repo", "pkg"), join(root, "home"));
    expect(files.map((f) => [f.label, f.content])).toEqual([
      ["~/.claude/CLAUDE.md", "global rules"],
      ["../AGENTS.md", "root agents"],
      ["../CLAUDE.md", "root claude"],
      ["AGENTS.md", "pkg agents"],
      [".agent0/context.md", "agent0 context"],
      [".cursorrules", "cursor rules"],
      [".github/copilot-instructions.md", "copilot rules"],
    ]);
    expect(files[3]!.path).toBe(join(root, "repo", "pkg", "AGENTS.md"));
  });

  it("reads only the folder itself when it is not in a repo", async () => {
    const root = await tempDir();
    await writeTree(root, { "AGENTS.md": "parent", "sub/AGENTS.md": "here" });
    const files = await loadInstructionFiles(join(root, "sub"), join(root, "nohome"));
    expect(files.map((f) => f.content)).toEqual(["here"]);
  });

  it("caps a large file with a [truncated] marker", async () => {
    const root = await tempDir();
    await writeTree(root, { "AGENTS.md": "a".repeat(CONTEXT_FILE_CAP + 500), "CLAUDE.md": "small" });
    const [big, small] = await loadInstructionFiles(root, join(root, "nohome"));
    expect(big!.truncated).toBe(true);
    expect(big!.content).toBe(`${"a".repeat(CONTEXT_FILE_CAP)}\n[truncated]`);
    expect(small).toMatchObject({ content: "small", truncated: false });
  });

  it("reads a file reached twice through a symlink once", async () => {
    const root = await tempDir();
    await writeTree(root, { "CLAUDE.md": "shared" });
    await symlink("CLAUDE.md", join(root, "AGENTS.md"));
    const files = await loadInstructionFiles(root, join(root, "nohome"));
    expect(files.map((f) => f.content)).toEqual(["shared"]);
  });
});
