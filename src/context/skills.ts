import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAgent0Skills, parseSkillMd, type Skill } from "./skill-parse.js";
import { slashCommands } from "./builtin-commands.js";
import { parseClaudeCommand } from "./claude-commands.js";
import type { PluginSkillFile } from "../protocol/plugins.js";

export { parseAgent0Skills, parseSkillMd, firstLineDescription } from "./skill-parse.js";
export type { Skill, SkillFormat, SkillSummary, ParsedSkillMd } from "./skill-parse.js";
export { completeSlash, expandSkill, parseSlash, usage, type Expansion } from "./skill-expand.js";

export interface SkillDirs {
  cwd: string;
  home: string;
  configDir: string;
  /** The package's built-in skills folder; omitted -> none. */
  builtinDir?: string;
  /** Names a skill may not take (the built-in slash commands by default). */
  reserved?: string[];
  /** SKILL.md files of the Agent Plugins that count (each confined to its plugin by context/plugins.ts). */
  plugins?: readonly PluginSkillFile[];
}

export interface LoadedSkills {
  skills: Skill[];
  warnings: string[];
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Names in a fixed order, case folded first: the first localeCompare of a process sets up ICU's
 * collator (~8 ms), on the path of every start, for names that are almost always plain ASCII.
 */
function compareNames(a: { name: string }, b: { name: string }): number {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function listDir(dir: string): { name: string; isDir: boolean; isFile: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .map((e) => ({
        name: e.name,
        isDir: e.isDirectory() || e.isSymbolicLink(),
        isFile: e.isFile() || e.isSymbolicLink(),
      }))
      .sort(compareNames);
  } catch {
    return [];
  }
}

/** One agent0-format file. */
function fromAgent0File(path: string): Skill[] {
  const text = readText(path);
  return text === undefined ? [] : parseAgent0Skills(text, path);
}

/** Every `<dir>/<name>/SKILL.md` under `dir`. */
function fromSkillMdDir(dir: string, warnings: string[]): Skill[] {
  const out: Skill[] = [];
  for (const entry of listDir(dir)) {
    if (!entry.isDir) continue;
    const path = join(dir, entry.name, "SKILL.md");
    const text = readText(path);
    if (text === undefined) continue;
    const parsed = parseSkillMd(text, path);
    if (parsed.ok) out.push(parsed.skill);
    else warnings.push(parsed.error);
  }
  return out;
}

/** The plugins' SKILL.md files of one scope, each skill marked with its plugin. */
function fromPlugins(files: readonly PluginSkillFile[] | undefined, scope: string, warnings: string[]): Skill[] {
  const out: Skill[] = [];
  for (const f of files ?? []) {
    if (f.scope !== scope) continue;
    const text = readText(f.file);
    if (text === undefined) continue;
    const parsed = parseSkillMd(text, f.file);
    if (parsed.ok) out.push({ ...parsed.skill, plugin: f.plugin });
    else warnings.push(parsed.error);
  }
  return out;
}

/** Every `*.md` file directly in `dir`, in agent0's format. */
function fromAgent0Dir(dir: string): Skill[] {
  return listDir(dir)
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .flatMap((e) => fromAgent0File(join(dir, e.name)));
}

/** Every `*.md` file directly in `dir` as a Claude Code custom command. */
function fromCommandsDir(dir: string, warnings: string[]): Skill[] {
  const out: Skill[] = [];
  for (const e of listDir(dir)) {
    if (!e.isFile || !e.name.endsWith(".md")) continue;
    const path = join(dir, e.name);
    const parsed = parseClaudeCommand(readText(path) ?? "", path);
    if (parsed.ok) out.push(parsed.skill);
    else warnings.push(parsed.error);
  }
  return out;
}

/**
 * All skills, later sources overriding earlier ones of the same name:
 * built-in < user (the user's plugins, ~/.claude/skills, ~/.agents/skills, $XDG_CONFIG_HOME/agent0) <
 * project (the project's trusted plugins, .claude/skills, .agents/skills, .agent0): a skill of one's
 * own beats a plugin's of the same name. `.agents/skills` is the vendor-neutral folder other agents
 * read too.
 * A broken SKILL.md becomes a warning naming the file; the rest still load.
 */
export function loadSkills(dirs: SkillDirs): LoadedSkills {
  const warnings: string[] = [];
  const claudeUser = join(dirs.home, ".claude", "skills");
  const layers: Skill[][] = [
    dirs.builtinDir ? [...fromAgent0Dir(dirs.builtinDir), ...fromSkillMdDir(dirs.builtinDir, warnings)] : [],
    [
      ...fromPlugins(dirs.plugins, "user", warnings),
      ...fromCommandsDir(join(dirs.home, ".claude", "commands"), warnings),
      ...fromAgent0Dir(claudeUser),
      ...fromSkillMdDir(claudeUser, warnings),
      ...fromSkillMdDir(join(dirs.home, ".agents", "skills"), warnings),
      ...fromAgent0File(join(dirs.configDir, "skills.md")),
      ...fromSkillMdDir(join(dirs.configDir, "skills"), warnings),
    ],
    [
      ...fromPlugins(dirs.plugins, "project", warnings),
      ...fromCommandsDir(join(dirs.cwd, ".claude", "commands"), warnings),
      ...fromSkillMdDir(join(dirs.cwd, ".claude", "skills"), warnings),
      ...fromSkillMdDir(join(dirs.cwd, ".agents", "skills"), warnings),
      ...fromAgent0File(join(dirs.cwd, ".agent0", "skills.md")),
      ...fromSkillMdDir(join(dirs.cwd, ".agent0", "skills"), warnings),
    ],
  ];
  const reserved = new Set(dirs.reserved ?? slashCommands.filter((c) => !c.yields).map((c) => c.name));
  const byName = new Map<string, Skill>();
  const scopes = ["built-in", "user", "project"] as const;
  layers.forEach((layer, i) => layer.forEach((skill) => (skill.scope = scopes[i])));
  for (const skill of layers.flat()) {
    if (reserved.has(skill.name)) {
      warnings.push(`${skill.source}: skill /${skill.name} has the name of a built-in command — skipped`);
      continue;
    }
    byName.set(skill.name, skill);
  }
  const skills = [...byName.values()].sort(compareNames);
  return { skills, warnings };
}
