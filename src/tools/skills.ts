import { type ToolResult, defineTool, type ToolContext } from "./types.js";
import * as z from "zod";
import { builtinSkillsDir, homeDir } from "../context/dirs.js";
import { expandSkill, loadSkills, usage, type Skill } from "../context/skills.js";

function skillsFor(ctx: ToolContext): { skills: Skill[]; warnings: string[] } {
  return loadSkills({
    cwd: ctx.cwd,
    home: homeDir(process.env),
    configDir: ctx.config.configDir,
    builtinDir: builtinSkillsDir(),
    ...(ctx.config.pluginSkills ? { plugins: ctx.config.pluginSkills } : {}),
  });
}

export const skillsTool = defineTool({
  name: "skills",
  description:
    'Reusable instructions for common tasks. action "list" shows the skills; action "load" with a name ' +
    "(and args, as the user would type them after /name) returns the skill's instructions: follow them.",
  schema: () =>
    z.object({
      action: z.enum(["list", "load"]),
      name: z.string().optional().describe('The skill, for "load" (without the slash).'),
      args: z.string().optional().describe("Arguments for the skill, as one line."),
    }),
  readOnly: true,
  concurrentSafe: true,
  label: (args) => (args.action === "load" ? `skill ${args.name ?? ""}`.trim() : "list skills"),
  run(args, ctx): ToolResult {
    const { skills, warnings } = skillsFor(ctx);
    if (args.action === "list") {
      if (skills.length === 0) return { content: "No skills are installed.", summary: "none" };
      const lines = skills.map((s) => `- ${usage(s)} — ${s.description}`);
      if (warnings.length > 0) lines.push("", "Not loaded:", ...warnings.map((w) => `- ${w}`));
      return { content: lines.join("\n"), summary: `${skills.length} skills` };
    }
    const name = (args.name ?? "").replace(/^\//, "").trim();
    if (!name) return { content: 'Error: "load" needs a name; use action "list" to see them.', isError: true };
    const skill = skills.find((s) => s.name === name);
    if (!skill) {
      const names = skills.map((s) => s.name).join(", ") || "none";
      return { content: `Error: no skill named "${name}". Skills: ${names}.`, isError: true };
    }
    const expanded = expandSkill(skill, args.args ?? "");
    if (!expanded.ok) return { content: `Error: ${expanded.error}`, isError: true };
    const limit = skill.allowedTools
      ? `\n\nWhile following this skill use only these tools: ${skill.allowedTools.join(", ")}.`
      : "";
    if (skill.allowedTools) ctx.restrictTools?.(skill.allowedTools);
    return {
      content: `Skill /${skill.name} (${skill.source}):\n\n${expanded.prompt}${limit}`,
      summary: `loaded /${skill.name}`,
    };
  },
});
