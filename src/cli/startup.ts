import type { RunConfig } from "../protocol/run-config.js";
import { loadConfig, loadMcpServers, type Config } from "../context/config.js";
import { configFilePath } from "../context/dirs.js";
import { resolveConfig, type CliOptions } from "./config.js";
import { sandboxProblem } from "../tools/shell/sandbox.js";

export type { CliOptions } from "./config.js";

export interface Startup {
  config: RunConfig;
  file: Config;
  warnings: string[];
}

/** The session's settings from flags, environment and the (validated) config files. */
export function startup(opts: CliOptions, interactive: boolean, env = process.env): Startup {
  const cwd = process.cwd();
  const { config: file, warnings } = loadConfig(configFilePath(env));
  const mcp = loadMcpServers(cwd, file);
  warnings.push(...mcp.warnings);
  const config = resolveConfig(opts, file, { interactive, mcpServers: mcp.servers, cwd }, env);
  // Never silently unsandboxed: a sandbox that cannot run stops the app with the reason.
  if (config.sandbox === "workspace-write") {
    const problem = sandboxProblem();
    if (problem) throw new Error(`--sandbox: ${problem}`);
  }
  return { config, file, warnings };
}
