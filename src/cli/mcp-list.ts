// `agent0 mcp list`: every configured MCP server, where it is defined, how it connects, and
// whether it starts (the user's own config: always; a project's: once trusted).
import { loadConfig } from "../context/config.js";
import { configDir, configFilePath } from "../context/dirs.js";
import { describeMcpServer, listMcpServers, type McpServerSource } from "../context/mcp-config.js";
import { lookupTrust, mcpTrustFile } from "../context/mcp-trust.js";
import { sanitizeLine } from "../render/sanitize.js";
import { pluginMcpSources } from "../context/plugin-select.js";
import { loadPlugins } from "./startup.js";

export function printMcpList(cwd: string, env: NodeJS.ProcessEnv, out: (s: string) => void): number {
  const { config, warnings } = loadConfig(configFilePath(env));
  const listed = listMcpServers(cwd, { file: configFilePath(env), servers: config.mcpServers });
  const trustFile = mcpTrustFile(configDir(env));
  // The servers of the Agent Plugins that count (the user's; a project's once the plugin is trusted).
  const plugins = loadPlugins(cwd, config.enabledPlugins, trustFile, false, env);
  listed.servers.push(...pluginMcpSources(plugins.selection.active));
  for (const w of [...warnings, ...listed.warnings, ...plugins.warnings]) out(`warning: ${sanitizeLine(w)}\n`);
  if (listed.servers.length === 0) {
    out(
      `No MCP servers configured. Add them under "mcpServers" in ${configFilePath(env)}, .agent0/mcp.json or .mcp.json.\n`,
    );
    return 0;
  }
  const shadowed = new Set(listed.servers.filter((s) => s.scope === "project").map((s) => s.name));
  for (const s of listed.servers) {
    const lines = [
      `${s.name}  (${s.config.plugin !== undefined ? `${s.scope === "user" ? "your" : "the project's"} plugin ${s.config.plugin}` : s.scope === "user" ? "user config" : "project"}: ${s.file})`,
      `  ${describeMcpServer(s.config)}`,
      `  ${trustText(s, trustFile, cwd, shadowed)}`,
    ];
    out(lines.map(sanitizeLine).join("\n") + "\n");
  }
  return 0;
}

function trustText(s: McpServerSource, trustFile: string, cwd: string, shadowed: Set<string>): string {
  if (s.scope === "user") {
    const calls = s.config.trusted ? "its tools run without asking" : "its tools ask before they run";
    const note = shadowed.has(s.name) ? " (a trusted project server of the same name replaces it)" : "";
    return `starts: yes (your config); ${calls}${note}`;
  }
  switch (lookupTrust(trustFile, cwd, s)) {
    case "allow":
      return `starts: yes (you trusted it in this project; /mcp untrust ${s.name} stops it)`;
    case "deny":
      return `starts: no (you declined it in this project; /mcp trust ${s.name} in agent0 starts it)`;
    default:
      return "starts: not until you trust it (agent0 asks at launch; -p skips it unless --trust-project-mcp)";
  }
}
