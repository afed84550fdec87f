import os from "node:os";
import { builtinSkillsDir, configDir, homeDir } from "../context/dirs.js";
import { buildSystemPrompt, loadContext, type PromptPart } from "../context/prompt.js";
import { loadSkills, type Skill } from "../context/skills.js";
import type { PluginSkillFile } from "../protocol/plugins.js";

/** What the model is told about the project; the TUI loads it after the first frame is on screen. */
export interface ProjectContext {
  systemPrompt: string;
  /** The prompt a small window gets (protocol/window.ts). */
  systemPromptLean: string;
  skills: Skill[];
  /** The parts of each prompt, for /context. */
  promptParts: { full: PromptPart[]; lean: PromptPart[] };
  warnings: string[];
}

/** Instruction files, git facts, memory and skills: the system prompt of the session. */
export async function loadProjectContext(
  cwd: string,
  env = process.env,
  addDirs: readonly string[] = [],
  pluginSkills: readonly PluginSkillFile[] = [],
): Promise<ProjectContext> {
  const loadedSkills = loadSkills({
    cwd,
    home: homeDir(env),
    configDir: configDir(env),
    builtinDir: builtinSkillsDir(),
    plugins: pluginSkills,
  });
  const context = await loadContext(cwd, env);
  const prompt = buildSystemPrompt({
    cwd,
    addDirs,
    date: new Date().toISOString().slice(0, 10),
    platform: `${os.platform()} ${os.release()}`,
    files: context.files,
    git: context.git,
    memoryIndex: context.memoryIndex,
    skills: loadedSkills.skills,
  });
  return {
    systemPrompt: prompt.text,
    systemPromptLean: prompt.lean.text,
    skills: loadedSkills.skills,
    promptParts: { full: prompt.parts, lean: prompt.lean.parts },
    warnings: loadedSkills.warnings,
  };
}
