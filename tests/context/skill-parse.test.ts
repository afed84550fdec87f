import { describe, expect, it } from "vitest";
import {
  completeSlash,
  expandSkill,
  parseAgent0Skills,
  parseSkillMd,
  parseSlash,
  type Skill,
} from "../../src/context/skills.js";

const FILE = `# My skills
Text before the first skill belongs to no skill.

## /greet <who>
Say hello to {who}.

## /port <from> <to> <notes>
Port {from} to {to}.
Notes: {notes}
Braces that are no parameter stay: {other}.

/plain
Just do it.
\`\`\`
## /not-a-skill <x>
\`\`\`
`;

function skill(name: string, skills: Skill[]): Skill {
  const found = skills.find((s) => s.name === name);
  if (!found) throw new Error(`no skill ${name}`);
  return found;
}

describe("agent0 skill format", () => {
  const skills = parseAgent0Skills(FILE, "/cfg/skills.md");

  it("starts a skill at each `## /name <params>` heading or bare `/name` line, ignoring fenced text", () => {
    expect(skills.map((s) => [s.name, s.params])).toEqual([
      ["greet", ["who"]],
      ["port", ["from", "to", "notes"]],
      ["plain", []],
    ]);
    expect(skill("plain", skills).template).toBe("Just do it.\n```\n## /not-a-skill <x>\n```");
    expect(skill("greet", skills)).toEqual({
      name: "greet",
      description: "Say hello to {who}.",
      params: ["who"],
      template: "Say hello to {who}.",
      source: "/cfg/skills.md",
      format: "agent0",
    });
  });

  it("fills {param}s in order, the last taking the rest of the line", () => {
    expect(expandSkill(skill("port", skills), "  lib/a.js   src/a.ts keep the   API stable ")).toEqual({
      ok: true,
      prompt: "Port lib/a.js to src/a.ts.\nNotes: keep the   API stable\nBraces that are no parameter stay: {other}.",
    });
    expect(expandSkill(skill("greet", skills), "the whole world")).toEqual({
      ok: true,
      prompt: "Say hello to the whole world.",
    });
  });

  it("says which parameter is missing and how to call the skill", () => {
    expect(expandSkill(skill("port", skills), "lib/a.js")).toEqual({
      ok: false,
      error: "/port needs <to>: usage /port <from> <to> <notes>",
    });
    expect(expandSkill(skill("port", skills), "lib/a.js src/a.ts")).toEqual({
      ok: false,
      error: "/port needs <notes>: usage /port <from> <to> <notes>",
    });
    expect(expandSkill(skill("greet", skills), "   ")).toEqual({
      ok: false,
      error: "/greet needs <who>: usage /greet <who>",
    });
  });

  it("appends text typed after a skill without parameters", () => {
    expect(expandSkill(skill("plain", skills), "carefully")).toEqual({
      ok: true,
      prompt: "Just do it.\n```\n## /not-a-skill <x>\n```\n\nARGUMENTS: carefully",
    });
  });
});

describe("SKILL.md format", () => {
  it("reads name, description and allowed-tools (a string or a list)", () => {
    const text =
      "---\nname: deploy\ndescription: Ship it\nallowed-tools: read_file, run_shell_command grep_files\n---\n\nDeploy $ARGUMENTS now.\n";
    const parsed = parseSkillMd(text, "/p/.agent0/skills/deploy/SKILL.md");
    expect(parsed).toEqual({
      ok: true,
      skill: {
        name: "deploy",
        description: "Ship it",
        params: [],
        template: "Deploy $ARGUMENTS now.",
        source: "/p/.agent0/skills/deploy/SKILL.md",
        format: "skill-md",
        allowedTools: ["read_file", "run_shell_command", "grep_files"],
      },
    });
    const listed = parseSkillMd("---\nname: x\nallowed-tools:\n  - read_file\n---\nbody", "/s/x/SKILL.md");
    expect(listed.ok && listed.skill.allowedTools).toEqual(["read_file"]);
  });

  it("takes the folder's name and the body's first line when the frontmatter leaves them out", () => {
    const parsed = parseSkillMd("# Tidy up\nRemove dead code.", "/s/tidy/SKILL.md");
    expect(parsed.ok && [parsed.skill.name, parsed.skill.description]).toEqual(["tidy", "Tidy up"]);
  });

  it("replaces $ARGUMENTS with the typed text, or appends it after the body", () => {
    const withPlaceholder = parseSkillMd("---\nname: a\n---\nFix $ARGUMENTS; then test $ARGUMENTS.", "/s/a/SKILL.md");
    const without = parseSkillMd("---\nname: b\n---\nFix the bug.", "/s/b/SKILL.md");
    if (!withPlaceholder.ok || !without.ok) throw new Error("parse failed");
    expect(expandSkill(withPlaceholder.skill, "issue 12")).toEqual({
      ok: true,
      prompt: "Fix issue 12; then test issue 12.",
    });
    expect(expandSkill(without.skill, "in parser.ts")).toEqual({
      ok: true,
      prompt: "Fix the bug.\n\nARGUMENTS: in parser.ts",
    });
    expect(expandSkill(without.skill, "")).toEqual({ ok: true, prompt: "Fix the bug." });
  });

  it("gives a clear error naming the file for malformed frontmatter", () => {
    expect(parseSkillMd("---\nname: [oops\n---\nbody", "/s/bad/SKILL.md")).toEqual({
      ok: false,
      error: expect.stringMatching(/^\/s\/bad\/SKILL\.md: malformed frontmatter: .+/),
    });
    expect(parseSkillMd("---\nname: two words\n---\nbody", "/s/bad/SKILL.md")).toEqual({
      ok: false,
      error: "/s/bad/SKILL.md: malformed frontmatter: name: must be one word of letters, digits, '-', '_' or '.'",
    });
    expect(parseSkillMd("---\nname: x\nbody without end", "/s/bad/SKILL.md")).toEqual({
      ok: false,
      error: '/s/bad/SKILL.md: malformed frontmatter: no closing "---" line',
    });
  });
});

describe("slash input", () => {
  it("splits /name from its arguments and leaves paths alone", () => {
    expect(parseSlash("/explain src/a.ts line 3")).toEqual({ name: "explain", args: "src/a.ts line 3" });
    expect(parseSlash("  /help  ")).toEqual({ name: "help", args: "" });
    expect(parseSlash("/usr/bin/env is odd")).toBeNull();
    expect(parseSlash("hello /help")).toBeNull();
    expect(parseSlash("/")).toBeNull();
  });

  it("completes /prefixes to the matching names", () => {
    const names = ["resume", "review", "help", "/model", "review"];
    expect(completeSlash("/re", names)).toEqual(["/resume", "/review"]);
    expect(completeSlash("/", ["b", "a"])).toEqual(["/a", "/b"]);
    expect(completeSlash("/mo", names)).toEqual(["/model"]);
    expect(completeSlash("re", names)).toEqual([]);
    expect(completeSlash("/review now", names)).toEqual([]);
  });
});
