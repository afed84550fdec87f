import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { saveMemory } from "../../src/context/memory.js";
import { loadContext } from "../../src/context/load.js";
import { buildSystemPrompt, estimateTokens, type PromptInput } from "../../src/context/prompt.js";
import type { ContextFile } from "../../src/context/project.js";
import { tempDir, writeTree } from "./helpers.js";

const base: PromptInput = { cwd: "/work/app", date: "2026-03-14", platform: "linux", files: [] };

const file = (label: string, content: string): ContextFile => ({
  path: `/work/app/${label}`,
  label,
  content,
  truncated: false,
});

describe("buildSystemPrompt", () => {
  it("always holds the instructions, date, platform and working folder", () => {
    const { text, parts } = buildSystemPrompt(base);
    expect(text).toContain("Date: 2026-03-14\nPlatform: linux\nWorking folder: /work/app");
    for (const hint of [
      "read_file before you edit",
      "edit_file",
      "old_string",
      "run_shell_command",
      "grep_files",
      "glob_files",
      "list_files",
      "terminal",
      "Never invent file contents",
    ]) {
      expect(text).toContain(hint);
    }
    expect(parts.map((p) => p.name)).toEqual(["instructions", "environment"]);
    expect(text).not.toContain("# Git");
    expect(text).not.toContain("# Memory");
    expect(text).not.toContain("# Skills");
    expect(text).not.toContain("# Instructions from");
  });

  for (const label of [
    "AGENTS.md",
    "CLAUDE.md",
    "~/.claude/CLAUDE.md",
    ".agent0/context.md",
    ".cursorrules",
    ".github/copilot-instructions.md",
  ]) {
    it(`names ${label} and includes its text only when it was loaded`, () => {
      const without = buildSystemPrompt(base).text;
      expect(without).not.toContain(`# Instructions from ${label}\n`);
      const { text, parts } = buildSystemPrompt({ ...base, files: [file(label, `RULE FROM ${label}`)] });
      expect(text).toContain(`# Instructions from ${label}\n`);
      expect(text).toContain(`RULE FROM ${label}`);
      expect(parts[2]).toEqual({
        name: label,
        source: `/work/app/${label}`,
        tokens: expect.any(Number),
        kind: "project",
      });
    });
  }

  it("adds git facts, the memory index and the skills when given", () => {
    const { text, parts } = buildSystemPrompt({
      ...base,
      git: { root: "/work/app", branch: "main", status: [" M a.ts"], moreStatus: 0, commits: ["abc123 first"] },
      memoryIndex: "User memories (/c):\n- [Tone](tone.md) — terse",
      skills: [{ name: "explain", description: "Explain code", params: ["target"] }],
    });
    expect(text).toContain(
      "# Git\nBranch: main\nStatus (git status --short):\n   M a.ts\nRecent commits:\n  abc123 first",
    );
    expect(text).toContain("- [Tone](tone.md) — terse");
    expect(text).toContain("- /explain <target> — Explain code");
    expect(parts.map((p) => p.name)).toEqual(["instructions", "environment", "git", "memory index", "skills"]);
  });

  it("estimates tokens per part at about four characters each", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcdefgh")).toBe(2);
    expect(estimateTokens("abcdefghi")).toBe(3);
    const { text, parts } = buildSystemPrompt({ ...base, files: [file("AGENTS.md", "x".repeat(4000))] });
    expect(parts[2]!.tokens).toBeGreaterThanOrEqual(1000);
    const sum = parts.reduce((n, p) => n + p.tokens, 0);
    expect(Math.abs(sum - estimateTokens(text))).toBeLessThanOrEqual(parts.length);
  });
});

describe("loadContext", () => {
  it("loads the project's files, git facts and memory index", async () => {
    const root = await tempDir();
    const cwd = join(root, "proj");
    await writeTree(root, { "proj/AGENTS.md": "Use pnpm.", "home/.claude/CLAUDE.md": "Be brief." });
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd });
    const env = { HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "xdg") };
    await saveMemory(join(root, "xdg", "agent0", "memory"), {
      name: "Tone",
      description: "terse",
      type: "feedback",
      content: "x",
    });

    // A budget no loaded test machine runs out of (the default's keeping is git.test.ts's).
    const ctx = await loadContext(cwd, env, { gitBudgetMs: 30_000 });
    expect(ctx.files.map((f) => [f.label, f.content])).toEqual([
      ["~/.claude/CLAUDE.md", "Be brief."],
      ["AGENTS.md", "Use pnpm."],
    ]);
    expect(ctx.git?.branch).toBe("main");
    expect(ctx.memoryIndex).toContain("- [Tone](tone.md) — terse");

    const { text } = buildSystemPrompt({ ...base, ...ctx });
    expect(text).toContain("# Instructions from AGENTS.md\n");
    expect(text).toContain("Use pnpm.");
    expect(text).toContain("- [Tone](tone.md) — terse");
  });

  it("has no git section outside a repo", async () => {
    const root = await tempDir();
    const ctx = await loadContext(root, { HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "xdg") });
    expect(ctx).toEqual({ cwd: root, files: [], memoryIndex: "" });
  });
});
