// The settings of a session another program opens (an editor over ACP, an MCP client), in the
// folder it names: the server's flags and config files, that folder's MCP servers (trusted ones
// only: nobody is there to ask) and project context, and the servers the client brought.
import path from "node:path";
import type { McpServerConfig, RunConfig } from "../protocol/run-config.js";
import type { Skill } from "../context/skills.js";
import { loadProjectContext } from "./project-context.js";
import { loadMcp, type Startup } from "./startup.js";
import { pluginSkillFiles } from "../context/plugin-select.js";

export interface HostedConfig {
  config: RunConfig;
  skills: Skill[];
  warnings: string[];
}

/** A session's config in `cwd`, from the server's start-up settings. */
export async function hostedConfig(
  base: Startup,
  cwd: string,
  opts: { trustProjectMcp: boolean; clientServers?: Record<string, McpServerConfig>; env?: NodeJS.ProcessEnv },
): Promise<HostedConfig> {
  const env = opts.env ?? process.env;
  const dir = path.resolve(cwd);
  const mcp = loadMcp(dir, base.file, opts.trustProjectMcp, env);
  const warnings = [...mcp.warnings];
  for (const s of mcp.startup.selection.pending)
    warnings.push(
      `MCP server ${s.name} (${s.file}) is not trusted in this project — skipped. Approve it in the TUI, or start with --trust-project-mcp.`,
    );
  for (const p of mcp.startup.plugins.pending)
    warnings.push(
      `Agent Plugin ${p.name} (${p.root}) is not trusted in this project — skipped. Approve it in the TUI (/plugins), or start with --trust-project-mcp.`,
    );
  const pluginSkills = pluginSkillFiles(mcp.startup.plugins.active);
  const context = await loadProjectContext(dir, env, [], pluginSkills);
  warnings.push(...context.warnings);
  const config: RunConfig = {
    ...base.config,
    cwd: dir,
    allowedTools: [...base.config.allowedTools],
    mcpServers: { ...mcp.servers, ...opts.clientServers },
    systemPrompt: context.systemPrompt,
    pluginSkills,
  };
  delete config.checkpointDir;
  delete config.sessionId;
  return { config, skills: context.skills, warnings };
}

/** Whether `dir` is `root` or inside it. */
export function isInside(root: string, dir: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(dir));
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
