import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtinSkillsDir } from "../../src/context/dirs.js";
import { expandSkill, loadSkills } from "../../src/context/skills.js";
import { tempDir, writeTree } from "./helpers.js";

async function layout() {
  const root = await tempDir();
  const dirs = {
    cwd: join(root, "proj"),
    home: join(root, "home"),
    configDir: join(root, "cfg", "agent0"),
    builtinDir: join(root, "builtin"),
  };
  return { root, dirs };
}

describe("loadSkills", () => {
  it("loads both formats from every source", async () => {
    const { root, dirs } = await layout();
    await writeTree(root, {
      "builtin/commit.md": "## /commit\nBuilt-in commit.",
      "home/.claude/skills/notes.md": "## /jot <text>\nWrite {text} down.",
      "home/.claude/skills/lint/SKILL.md": "---\nname: lint\ndescription: Run the linter\n---\nLint.",
      "cfg/agent0/skills.md": "## /cfg-one\nFrom config.",
      "cfg/agent0/skills/cfg-two/SKILL.md": "---\ndescription: Second\n---\nTwo.",
      "proj/.agent0/skills.md": "## /myskill <arg>\nDo {arg}.",
      "proj/.agent0/skills/deploy/SKILL.md":
        "---\nname: deploy\ndescription: Ship\nallowed-tools: run_shell_command\n---\nGo.",
    });
    const { skills, warnings } = loadSkills(dirs);
    expect(warnings).toEqual([]);
    expect(skills.map((s) => `${s.name}:${s.format}`)).toEqual([
      "cfg-one:agent0",
      "cfg-two:skill-md",
      "commit:agent0",
      "deploy:skill-md",
      "jot:agent0",
      "lint:skill-md",
      "myskill:agent0",
    ]);
    expect(skills.find((s) => s.name === "deploy")?.allowedTools).toEqual(["run_shell_command"]);
  });

  // The vendor-neutral `.agents/skills` folder (agentskills.io; read by Copilot CLI and Codex) holds
  // SKILL.md folders; a project's overrides the user's, and agent0's own `.agent0/skills` overrides both.
  it("reads .agents/skills in the home and the project", async () => {
    const { root, dirs } = await layout();
    await writeTree(root, {
      "home/.agents/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Read PDFs\n---\nUser pdf.",
      "home/.agents/skills/shared/SKILL.md": "---\nname: shared\n---\nUser shared.",
      "proj/.agents/skills/shared/SKILL.md": "---\nname: shared\n---\nProject shared.",
      "proj/.agents/skills/mine/SKILL.md": "---\nname: mine\n---\nNeutral mine.",
      "proj/.agent0/skills/mine/SKILL.md": "---\nname: mine\n---\nAgent0 mine.",
    });
    const { skills, warnings } = loadSkills(dirs);
    expect(warnings).toEqual([]);
    const text = Object.fromEntries(skills.map((s) => [s.name, `${s.scope}:${s.template}`]));
    expect(text).toEqual({ mine: "project:Agent0 mine.", pdf: "user:User pdf.", shared: "project:Project shared." });
  });

  it("lets project skills override user skills, and user skills override built-ins", async () => {
    const { root, dirs } = await layout();
    await writeTree(root, {
      "builtin/audit.md": "## /audit\nBuilt-in audit.\n## /test\nBuilt-in test.",
      "cfg/agent0/skills.md": "## /audit\nUser audit.\n## /deploy\nUser deploy.",
      "home/.claude/skills/test/SKILL.md": "---\nname: test\n---\nUser test.",
      "proj/.agent0/skills/deploy/SKILL.md": "---\nname: deploy\n---\nProject deploy.",
    });
    const { skills } = loadSkills(dirs);
    const text = Object.fromEntries(skills.map((s) => [s.name, s.template]));
    expect(text).toEqual({ audit: "User audit.", deploy: "Project deploy.", test: "User test." });
  });

  it("reports a malformed SKILL.md by file and still loads the others", async () => {
    const { root, dirs } = await layout();
    await writeTree(root, {
      "proj/.agent0/skills/broken/SKILL.md": "---\ndescription: [unclosed\n---\nBody.",
      "proj/.agent0/skills/fine/SKILL.md": "---\nname: fine\ndescription: Works\n---\nBody.",
      "proj/.agent0/skills.md": "## /other\nAlso works.",
    });
    const { skills, warnings } = loadSkills(dirs);
    expect(skills.map((s) => s.name)).toEqual(["fine", "other"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(`^${join(dirs.cwd, ".agent0/skills/broken/SKILL.md")}: malformed frontmatter: `),
    );
  });

  it("skips a skill that takes the name of a built-in command", async () => {
    const { root, dirs } = await layout();
    await writeTree(root, { "proj/.agent0/skills.md": "## /help\nMine.\n## /ok\nFine." });
    const { skills, warnings } = loadSkills(dirs);
    expect(skills.map((s) => s.name)).toEqual(["ok"]);
    expect(warnings).toEqual([
      `${join(dirs.cwd, ".agent0/skills.md")}: skill /help has the name of a built-in command — skipped`,
    ]);
  });

  it("finds nothing, and no warning, when no folder exists", async () => {
    const { dirs } = await layout();
    expect(loadSkills(dirs)).toEqual({ skills: [], warnings: [] });
  });
});

describe("built-in skills", () => {
  // /review is a built-in command now (it reads the diff itself: context/review.ts).
  it("ship commit, test and explain in agent0's format, each described", async () => {
    const { dirs } = await layout();
    const { skills, warnings } = loadSkills({ ...dirs, builtinDir: builtinSkillsDir() });
    expect(warnings).toEqual([]);
    expect(skills.map((s) => [s.name, s.params, s.format])).toEqual([
      ["commit", [], "agent0"],
      ["explain", ["target"], "agent0"],
      ["test", [], "agent0"],
    ]);
    for (const s of skills) expect(s.description.length).toBeGreaterThan(10);
    const explain = skills.find((s) => s.name === "explain")!;
    const expanded = expandSkill(explain, "parseArgs");
    expect(expanded.ok && expanded.prompt).toContain("Explain parseArgs in this project.");
    expect(expandSkill(explain, "")).toEqual({ ok: false, error: "/explain needs <target>: usage /explain <target>" });
  });
});
