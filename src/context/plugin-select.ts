// Which Agent Plugins count: the user's enabled ones, and a project's enabled ones once the user
// trusts them — a cloned repository's plugin brings skills (text the model follows) and MCP
// servers (programs), so it counts only after the same question and store as the project's own
// hooks and servers (mcp-trust.ts), asked again when anything it brings changes. Its servers then
// still ask one by one, as a project's `.mcp.json` servers do.
import { join } from "node:path";
import type { PluginSkillFile, PluginView } from "../protocol/plugins.js";
import type { McpTrustDecision } from "./mcp-trust.js";
import { describeMcpServer, type McpServerSource } from "./mcp-config.js";
import type { LoadedPlugin } from "./plugins.js";

export interface PluginSelection {
  all: LoadedPlugin[];
  /** Enabled, and the user's or trusted: their skills and servers join the session's. */
  active: LoadedPlugin[];
  /** A project's enabled plugins nobody decided on (or changed since). */
  pending: LoadedPlugin[];
  denied: LoadedPlugin[];
  trusted: LoadedPlugin[];
  /** Names switched off in the config (`enabledPlugins: {name: false}`). */
  enabled: Readonly<Record<string, boolean>>;
}

/** The name of a project's plugin in the trust store. */
export function pluginTrustName(name: string): string {
  return `plugin:${name}`;
}

/** A plugin's server as agent0 runs it (Claude Code's spelling for a plugin's servers). */
export function pluginServerName(plugin: string, server: string): string {
  return `plugin:${plugin}:${server}`;
}

export function isEnabled(enabled: Readonly<Record<string, boolean>>, name: string): boolean {
  return enabled[name] !== false;
}

export function selectPlugins(
  plugins: readonly LoadedPlugin[],
  enabled: Readonly<Record<string, boolean>> | undefined,
  decide: (p: LoadedPlugin) => McpTrustDecision | undefined,
): PluginSelection {
  const on = enabled ?? {};
  const s: PluginSelection = { all: [...plugins], active: [], pending: [], denied: [], trusted: [], enabled: on };
  for (const p of plugins) {
    if (!isEnabled(on, p.name)) continue;
    if (p.scope === "user") {
      s.active.push(p);
      continue;
    }
    const decision = decide(p);
    if (decision === "allow") {
      s.trusted.push(p);
      s.active.push(p);
    } else if (decision === "deny") s.denied.push(p);
    else s.pending.push(p);
  }
  return s;
}

/** The active plugins' servers as MCP sources of their plugin's scope (a project's still ask). */
export function pluginMcpSources(active: readonly LoadedPlugin[]): McpServerSource[] {
  return active.flatMap((p) =>
    Object.entries(p.servers).map(([server, config]) => ({
      name: pluginServerName(p.name, server),
      config,
      scope: p.scope,
      file: join(p.root, "mcp.json"),
    })),
  );
}

export function pluginSkillFiles(active: readonly LoadedPlugin[]): PluginSkillFile[] {
  return active.flatMap((p) => p.skills.map((file) => ({ file, plugin: p.name, scope: p.scope })));
}

/** What the trust dialog shows of a project's plugin: where it is and all it would bring. */
export function describePlugin(p: LoadedPlugin): string {
  const lines = [`folder: ${p.root}`];
  if (p.manifest.description) lines.push(`about: ${p.manifest.description}`);
  if (p.skills.length) lines.push(`skills: ${p.skills.map(skillName).join(", ")}`);
  for (const [server, config] of Object.entries(p.servers))
    lines.push(`MCP server ${server} (asks again before it starts): ${describeMcpServer(config)}`);
  if (lines.length === 1) lines.push("no skills and no MCP servers");
  return lines.join("\n");
}

/** A skill's name as its folder gives it (§7.1: `skills/<name>/SKILL.md`). */
function skillName(file: string): string {
  return file.split("/").at(-2) ?? file;
}

export function pluginViews(s: PluginSelection): PluginView[] {
  const trustOf = (p: LoadedPlugin): PluginView["trust"] =>
    p.scope === "user" ? "user" : s.trusted.includes(p) ? "trusted" : s.denied.includes(p) ? "denied" : "pending";
  return s.all.map((p) => ({
    name: p.name,
    scope: p.scope,
    root: p.root,
    ...(p.manifest.version ? { version: p.manifest.version } : {}),
    ...(p.manifest.description ? { description: p.manifest.description } : {}),
    enabled: isEnabled(s.enabled, p.name),
    trust: trustOf(p),
    skills: p.skills.map(skillName),
    servers: Object.keys(p.servers).map((server) => pluginServerName(p.name, server)),
    extensions: p.manifest.extensions,
    warnings: p.warnings,
  }));
}
