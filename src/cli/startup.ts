import type { McpServerConfig, RunConfig } from "../protocol/run-config.js";
import { loadConfig, type Config } from "../context/config.js";
import { configDir, configFilePath } from "../context/dirs.js";
import { expandMcpEnv, listMcpServers, type McpServerSource } from "../context/mcp-config.js";
import { lookupTrust, mcpTrustFile, selectMcpServers, type McpSelection } from "../context/mcp-trust.js";
import { resolveConfig, type CliOptions } from "./config.js";
import { sandboxProblem } from "./tool-use.js";

export type { CliOptions } from "./config.js";

export interface Startup {
  config: RunConfig;
  file: Config;
  warnings: string[];
  mcp: McpStartup;
}

/** The MCP servers as configured, and which of them may start. */
export interface McpStartup {
  sources: McpServerSource[];
  selection: McpSelection;
  trustFile: string;
}

/** The session's settings from flags, environment and the (validated) config files. */
export function startup(opts: CliOptions, interactive: boolean, env = process.env): Startup {
  const cwd = process.cwd();
  const path = configFilePath(env);
  const { config: file, warnings } = loadConfig(path);
  const mcp = loadMcp(cwd, file, opts.trustProjectMcp === true, env);
  warnings.push(...mcp.warnings);
  const config = resolveConfig(opts, file, { interactive, mcpServers: mcp.servers, cwd }, env);
  // Never silently unsandboxed: a sandbox that cannot run stops the app with the reason.
  if (config.sandbox === "workspace-write") {
    const problem = sandboxProblem();
    if (problem) throw new Error(`--sandbox: ${problem}`);
  }
  return { config, file, warnings, mcp: mcp.startup };
}

/** Reads every MCP source and decides, with the remembered trust, what starts now. */
export function loadMcp(
  cwd: string,
  file: Pick<Config, "mcpServers">,
  trustProject: boolean,
  env: NodeJS.ProcessEnv,
): { startup: McpStartup; servers: Record<string, McpServerConfig>; warnings: string[] } {
  const trustFile = mcpTrustFile(configDir(env));
  const listed = listMcpServers(cwd, { file: configFilePath(env), servers: file.mcpServers });
  const selection = selectMcpServers(listed.servers, (s) => (trustProject ? "allow" : lookupTrust(trustFile, cwd, s)));
  const expanded = expandServers(selection.run, env);
  return {
    startup: { sources: listed.servers, selection, trustFile },
    servers: expanded.servers,
    warnings: [...listed.warnings, ...expanded.warnings],
  };
}

/** ${ENV} expanded in each server's definition, just before it is started. */
export function expandServers(
  servers: Record<string, McpServerConfig>,
  env: NodeJS.ProcessEnv,
): { servers: Record<string, McpServerConfig>; warnings: string[] } {
  const out: Record<string, McpServerConfig> = {};
  const warnings: string[] = [];
  for (const [name, config] of Object.entries(servers)) {
    const expanded = expandMcpEnv(name, config, env);
    out[name] = expanded.config;
    warnings.push(...expanded.warnings);
  }
  return { servers: out, warnings };
}
