import type { McpServerConfig, RunConfig } from "../protocol/run-config.js";
import { loadConfig, type Config } from "../context/config.js";
import { configDir, configFilePath, dataDir, homeDir } from "../context/dirs.js";
import { mkdirSync } from "node:fs";
import { expandMcpEnv, listMcpServers, type McpServerSource } from "../context/mcp-config.js";
import { lookupTrust, lookupTrustOf, mcpTrustFile, selectMcpServers, type McpSelection } from "../context/mcp-trust.js";
import {
  effectiveSettings,
  loadSettingsFiles,
  needsTrust,
  settingsTrustHash,
  settingsTrustName,
  type SettingsFile,
} from "../context/settings-files.js";
import { splitRuleList, type PermissionRule } from "../context/permission-rules.js";
import { settingsAddDirs } from "../context/add-dirs.js";
import { resolveConfig, type CliOptions } from "./config.js";
import { discoverPlugins } from "../context/plugins.js";
import {
  pluginMcpSources,
  pluginSkillFiles,
  pluginTrustName,
  selectPlugins,
  type PluginSelection,
} from "../context/plugin-select.js";
import { sandboxProblem } from "./tool-use.js";

export type { CliOptions } from "./config.js";

export interface Startup {
  config: RunConfig;
  file: Config;
  warnings: string[];
  mcp: McpStartup;
}

/** The MCP servers as configured, and which of them may start; the settings files likewise. */
export interface McpStartup {
  sources: McpServerSource[];
  selection: McpSelection;
  trustFile: string;
  settings: SettingsStartup;
  /** The Agent Plugins found and which of them count. */
  plugins: PluginSelection;
}

/** Settings files (hooks, permission rules) and which project files are trusted. */
export interface SettingsStartup {
  files: SettingsFile[];
  pending: SettingsFile[];
  denied: SettingsFile[];
  trusted: SettingsFile[];
  /** What counts now (hooks and rules of trusted files; every deny and ask rule). */
  hooks: RunConfig["hooks"];
  rules: PermissionRule[];
  statusLine?: RunConfig["statusLine"];
  /** `permissions.defaultMode` of the user's Claude Code settings, in agent0's words. */
  defaultMode?: RunConfig["permissionMode"];
  /** `permissions.additionalDirectories` of the user's and trusted project files, as written. */
  additionalDirectories?: string[];
}

/** The session's settings from flags, environment and the (validated) config files. */
export function startup(opts: CliOptions, interactive: boolean, env = process.env): Startup {
  const cwd = process.cwd();
  const path = configFilePath(env);
  const { config: file, warnings } = loadConfig(path);
  const mcp = loadMcp(cwd, file, opts.trustProjectMcp === true, env);
  warnings.push(...mcp.warnings);
  const config = resolveConfig(opts, file, { interactive, mcpServers: mcp.servers, cwd }, env);
  config.permissionRules = [...flagRules(opts), ...mcp.startup.settings.rules];
  config.hooks = mcp.startup.settings.hooks;
  const pluginSkills = pluginSkillFiles(mcp.startup.plugins.active);
  if (pluginSkills.length > 0) config.pluginSkills = pluginSkills;
  if (mcp.startup.settings.statusLine) config.statusLine = mcp.startup.settings.statusLine;
  // Claude Code's defaultMode counts below agent0's own choice (flag, config.json's permissionMode).
  const claudeMode = mcp.startup.settings.defaultMode;
  if (claudeMode && !opts.yolo && !opts.permissionMode && !file.permissionMode) config.permissionMode = claudeMode;
  // Claude Code's additionalDirectories join --add-dir's folders.
  const extraDirs = mcp.startup.settings.additionalDirectories ?? [];
  if (extraDirs.length > 0) {
    const dirs = settingsAddDirs(extraDirs, cwd, homeDir(env), warnings);
    const all = [...(config.addDirs ?? []), ...dirs.filter((d) => !config.addDirs?.includes(d))];
    if (all.length > 0) config.addDirs = all;
  }
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
  file: Pick<Config, "mcpServers" | "hooks" | "permissions" | "statusLine" | "enabledPlugins">,
  trustProject: boolean,
  env: NodeJS.ProcessEnv,
): { startup: McpStartup; servers: Record<string, McpServerConfig>; warnings: string[] } {
  const trustFile = mcpTrustFile(configDir(env));
  const listed = listMcpServers(cwd, { file: configFilePath(env), servers: file.mcpServers });
  const plugins = loadPlugins(cwd, file.enabledPlugins, trustFile, trustProject, env);
  listed.servers.push(...pluginMcpSources(plugins.selection.active));
  const selection = selectMcpServers(listed.servers, (s) => (trustProject ? "allow" : lookupTrust(trustFile, cwd, s)));
  const expanded = expandServers(selection.run, env);
  const settings = loadSettings(cwd, file, trustFile, env);
  makePluginData(expanded.servers, plugins.warnings);
  return {
    startup: { sources: listed.servers, selection, trustFile, settings: settings.startup, plugins: plugins.selection },
    servers: expanded.servers,
    warnings: [...listed.warnings, ...plugins.warnings, ...expanded.warnings, ...settings.warnings],
  };
}

/** The user's and the project's Agent Plugins, and which count (enabled; a project's once trusted). */
export function loadPlugins(
  cwd: string,
  enabled: Config["enabledPlugins"],
  trustFile: string,
  trustProject: boolean,
  env: NodeJS.ProcessEnv,
): { selection: PluginSelection; warnings: string[] } {
  const found = discoverPlugins({ cwd, home: homeDir(env), dataDir: dataDir(env) });
  const selection = selectPlugins(found.plugins, enabled, (p) =>
    trustProject ? "allow" : lookupTrustOf(trustFile, cwd, pluginTrustName(p.name), p.hash),
  );
  return { selection, warnings: found.warnings };
}

/** Agent Plugins §9.1: a plugin's PLUGIN_DATA exists before its server starts. */
function makePluginData(servers: Record<string, McpServerConfig>, warnings: string[]): void {
  for (const [name, s] of Object.entries(servers)) {
    const data = s.plugin !== undefined ? s.env?.PLUGIN_DATA : undefined;
    if (!data) continue;
    try {
      mkdirSync(data, { recursive: true });
    } catch (err) {
      warnings.push(`MCP server ${name}: cannot make its data folder ${data}: ${(err as Error).message}`);
    }
  }
}

/** `--allowedTools` and `--disallowedTools` (Claude Code's flags), as rules. */
export function flagRules(opts: Pick<CliOptions, "allowedTools" | "disallowedTools">): PermissionRule[] {
  const list = (text: string | undefined, kind: PermissionRule["kind"], source: string) =>
    splitRuleList(text ?? "").map((rule) => ({ rule, kind, source }));
  return [
    ...list(opts.disallowedTools, "deny", "--disallowedTools"),
    ...list(opts.allowedTools, "allow", "--allowedTools"),
  ];
}

/** Hooks and rules of the user's config and the project's settings files, with the remembered trust. */
export function loadSettings(
  cwd: string,
  file: Pick<Config, "hooks" | "permissions" | "statusLine">,
  trustFile: string,
  env: NodeJS.ProcessEnv,
  decide: (s: SettingsFile) => "allow" | "deny" | undefined = (s) =>
    lookupTrustOf(trustFile, cwd, settingsTrustName(cwd, s.file), settingsTrustHash(s)),
): { startup: SettingsStartup; warnings: string[] } {
  const loaded = loadSettingsFiles(
    cwd,
    { file: configFilePath(env), hooks: file.hooks, permissions: file.permissions, statusLine: file.statusLine },
    homeDir(env),
  );
  const asking = loaded.files.filter((f) => f.scope === "project" && needsTrust(f));
  const decided = new Map(asking.map((f) => [f, decide(f)]));
  const trusted = asking.filter((f) => decided.get(f) === "allow");
  const effective = effectiveSettings(loaded.files, (f) => trusted.includes(f));
  return {
    startup: {
      files: loaded.files,
      pending: asking.filter((f) => decided.get(f) === undefined),
      denied: asking.filter((f) => decided.get(f) === "deny"),
      trusted,
      hooks: effective.hooks,
      rules: effective.rules,
      ...(effective.statusLine ? { statusLine: effective.statusLine } : {}),
      ...(effective.defaultMode ? { defaultMode: effective.defaultMode } : {}),
      ...(effective.additionalDirectories ? { additionalDirectories: effective.additionalDirectories } : {}),
    },
    warnings: loaded.warnings,
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
