import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mapClaudeTools, parseClaudeCommand } from "../../src/context/claude-commands.js";
import { expandClaudeCommand } from "../../src/context/skill-expand.js";
import { expandSkill, loadSkills } from "../../src/context/skills.js";
import { tempProject } from "../tools/ctx.js";

// Examples as Claude Code's documentation writes them (docs.claude.com, "Slash commands").
const COMMIT = `---
allowed-tools: Bash(git add:*), Bash(git status:*), Bash(git commit:*)
argument-hint: [message]
description: Create a git commit
model: claude-3-5-haiku-20241022
---

Create a git commit with message: $ARGUMENTS`;

const REVIEW = `---
argument-hint: [pr-number] [priority] [assignee]
description: Review pull request
---

Review PR #$1 with priority $2 and assign to $3.
Focus on security, performance, and code style.`;

let cleanup = (): void => {};
afterEach(() => cleanup());

describe("Claude Code custom commands", () => {
  it("read the documented frontmatter: description, argument-hint (as written) and allowed-tools", () => {
    const commit = parseClaudeCommand(COMMIT, "/p/.claude/commands/commit.md");
    expect(commit.ok && commit.skill).toMatchObject({
      name: "commit",
      description: "Create a git commit",
      argumentHint: "[message]",
      allowedTools: ["run_shell_command"],
      format: "command",
    });
    const review = parseClaudeCommand(REVIEW, "/p/.claude/commands/review.md");
    expect(review.ok && review.skill.argumentHint).toBe("[pr-number] [priority] [assignee]");
  });

  it("fill $ARGUMENTS with the whole text and $1… with its words", () => {
    const review = parseClaudeCommand(REVIEW, "/p/.claude/commands/review.md");
    if (!review.ok) throw new Error(review.error);
    const out = expandSkill(review.skill, "456 high alice");
    expect(out.ok && out.prompt.split("\n")[0]).toBe("Review PR #456 with priority high and assign to alice.");
    expect(expandClaudeCommand("Commit: $ARGUMENTS", "fix the parser")).toBe("Commit: fix the parser");
    expect(expandClaudeCommand("No placeholders.", "extra words")).toBe("No placeholders.\n\nARGUMENTS: extra words");
  });

  it("map Claude's tool names to ours and keep other names", () => {
    expect(mapClaudeTools(["Read", "Edit", "MultiEdit", "Bash(npm test:*)", "mcp__db__query", "web_fetch"])).toEqual([
      "read_file",
      "edit_file",
      "run_shell_command",
      "mcp__db__query",
      "web_fetch",
    ]);
  });

  it("load from .claude/commands (project) and ~/.claude/commands (user), with their scope", () => {
    const p = tempProject({
      "project/.claude/commands/review.md": REVIEW,
      "home/.claude/commands/commit.md": COMMIT,
      "home/.claude/commands/notes.txt": "not a command",
    });
    cleanup = p.cleanup;
    const { skills, warnings } = loadSkills({
      cwd: path.join(p.dir, "project"),
      home: path.join(p.dir, "home"),
      configDir: path.join(p.dir, "config"),
    });
    expect(warnings).toEqual([]);
    expect(skills.map((s) => [s.name, s.scope, s.format])).toEqual([
      ["commit", "user", "command"],
      ["review", "project", "command"],
    ]);
    expect(fs.existsSync(path.join(p.dir, "home/.claude/commands/notes.txt"))).toBe(true);
  });
});
