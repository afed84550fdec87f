// The main thread's side of MCP for the TUI: what is configured, what the user trusts, and
// what goes to the worker (${ENV} expanded) — at boot, after a trust decision and at /new.
import type { McpConfigured, McpTrustDecision, McpTrustRequest } from "../protocol/mcp-state.js";
import { loadConfig, saveConfigKeys } from "../context/config.js";
import { describeMcpServer, type McpServerSource } from "../context/mcp-config.js";
import { recordTrust, recordTrustOf, selectMcpServers } from "../context/mcp-trust.js";
import {
  describeSettings,
  needsTrust,
  projectSettingsFiles,
  settingsTrustHash,
  settingsTrustName,
  type SettingsFile,
} from "../context/settings-files.js";
import { expandServers, loadMcp, loadSettings, type McpStartup } from "./startup.js";
import { describePlugin, pluginSkillFiles, pluginTrustName, pluginViews } from "../context/plugin-select.js";
import type { LoadedPlugin } from "../context/plugins.js";
import type { McpReloaded } from "../ui/runtime/services.js";
import { loadSkills } from "../context/skills.js";
import { builtinSkillsDir, configDir, configFilePath, homeDir } from "../context/dirs.js";
import { addPermissionRule, removePermissionRule } from "../context/settings-write.js";

export interface McpSession {
  configured(): { mcp: McpConfigured; warnings: string[] };
  trust(decisions: { name: string; decision: McpTrustDecision }[]): McpReloaded;
  /** Reads every source again; `skills` are the session's skills with the plugins' that count now. */
  reload(): McpReloaded;
  /** `/plugins enable|disable <name>`: `enabledPlugins` in config.json, then read again. */
  setPluginEnabled(name: string, enabled: boolean): Promise<McpReloaded & { text: string }>;
  /** `a` in the permission dialog: the rule goes to the project's `.agent0/settings.json`. */
  addProjectRule(rule: string): { mcp: McpConfigured; warnings: string[]; text: string };
  /** `/permissions remove`: takes the rule out of the settings file it came from. */
  removeRule(rule: string, file: string): { mcp: McpConfigured; warnings: string[]; text: string };
}

export function trustRequests(sources: readonly McpServerSource[]): McpTrustRequest[] {
  return sources.map((s) => ({ name: s.name, command: describeMcpServer(s.config), file: s.file }));
}

/** A project settings file waiting for trust, as the dialog names it. */
function settingsRequest(cwd: string, s: SettingsFile): McpTrustRequest {
  return { kind: "settings", name: settingsTrustName(cwd, s.file), command: describeSettings(s), file: s.file };
}

/** A project's plugin waiting for trust: everything it brings, named. */
function pluginRequest(p: LoadedPlugin): McpTrustRequest {
  return { kind: "plugin", name: pluginTrustName(p.name), command: describePlugin(p), file: `${p.root}/plugin.json` };
}

/** The project servers that run now (approved): the ones `/mcp untrust` can stop. */
function trustedProjectServers(startup: McpStartup): string[] {
  return startup.sources
    .filter((s) => s.scope === "project" && startup.selection.run[s.name] === s.config)
    .map((s) => s.name);
}

export function createMcpSession(
  initial: McpStartup,
  opts: { cwd: string; trustProject: boolean; env?: NodeJS.ProcessEnv },
): McpSession {
  const env = opts.env ?? process.env;
  let current = initial;
  /** The servers to run with ${ENV} expanded (its warnings were given when the files were read). */
  const configured = (warnings: string[] = []) => ({
    mcp: {
      servers: expandServers(current.selection.run, env).servers,
      pending: [
        ...current.plugins.pending.map(pluginRequest),
        ...trustRequests(current.selection.pending),
        ...current.settings.pending.map((s) => settingsRequest(opts.cwd, s)),
      ],
      denied: [
        ...current.plugins.denied.map(pluginRequest),
        ...trustRequests(current.selection.denied),
        ...current.settings.denied.map((s) => settingsRequest(opts.cwd, s)),
      ],
      trusted: [
        ...current.plugins.trusted.map((p) => pluginTrustName(p.name)),
        ...trustedProjectServers(current),
        ...current.settings.trusted.map((s) => settingsTrustName(opts.cwd, s.file)),
      ],
      plugins: { list: pluginViews(current.plugins), skills: pluginSkillFiles(current.plugins.active) },
      settings: {
        hooks: current.settings.hooks ?? {},
        rules: current.settings.rules,
        ...(current.settings.statusLine ? { statusLine: current.settings.statusLine } : {}),
      },
    },
    warnings,
  });
  /** The session's skills with those of the plugins that count now (they change with trust and /plugins). */
  const skills = () =>
    loadSkills({
      cwd: opts.cwd,
      home: homeDir(env),
      configDir: configDir(env),
      builtinDir: builtinSkillsDir(),
      plugins: pluginSkillFiles(current.plugins.active),
    }).skills;
  const reload = () => {
    const loaded = loadMcp(opts.cwd, loadConfig(configFilePath(env)).config, opts.trustProject, env);
    current = loaded.startup;
    return { ...configured(loaded.warnings), skills: skills() };
  };
  return {
    configured: () => configured(),
    trust(decisions) {
      // Any project server: one waiting, one declined before (/mcp trust), one trusted (/mcp untrust).
      const chosen = decisions.flatMap(({ name, decision }) => {
        const source = current.sources.find((s) => s.scope === "project" && s.name === name);
        return source ? [{ source, decision }] : [];
      });
      const settings = decisions.flatMap(({ name, decision }) => {
        const file = current.settings.files.find(
          (f) => f.scope === "project" && settingsTrustName(opts.cwd, f.file) === name,
        );
        return file ? [{ name, hash: settingsTrustHash(file), decision }] : [];
      });
      for (const { name, decision } of decisions) {
        const plugin = current.plugins.all.find((p) => p.scope === "project" && pluginTrustName(p.name) === name);
        if (plugin) settings.push({ name, hash: plugin.hash, decision });
      }
      try {
        recordTrustOf(current.trustFile, opts.cwd, settings);
        recordTrust(current.trustFile, opts.cwd, chosen);
      } catch (err) {
        // Not remembered, but this session still does what the user said.
        const why = `Could not save the MCP trust decision to ${current.trustFile}: ${(err as Error).message}`;
        const before = current.selection;
        const selection = selectMcpServers(current.sources, (s) => {
          const now = chosen.find((c) => c.source === s)?.decision;
          if (now) return now;
          if (before.run[s.name] === s.config) return "allow";
          return before.denied.includes(s) ? "deny" : undefined;
        });
        current = { ...current, selection };
        return configured([why]);
      }
      return reload();
    },
    reload,
    async setPluginEnabled(name, enabled) {
      const found = current.plugins.all.filter((p) => p.name === name);
      if (found.length === 0) return { ...configured(), text: `No plugin named ${name}. /plugins lists them.` };
      const file = configFilePath(env);
      const { enabledPlugins = {} } = loadConfig(file).config;
      const { [name]: _was, ...others } = enabledPlugins;
      const next = enabled ? others : { ...others, [name]: false };
      try {
        await saveConfigKeys(file, { enabledPlugins: Object.keys(next).length ? next : undefined });
      } catch (err) {
        return { ...configured(), text: `Could not save ${file}: ${(err as Error).message}` };
      }
      const after = reload();
      const waiting = enabled && after.mcp.pending.some((r) => r.name === pluginTrustName(name));
      const text = enabled
        ? `Enabled plugin ${name}${waiting ? " (a project's plugin: it counts once you trust it)" : ""}. Saved to ${file}.`
        : `Disabled plugin ${name}: its skills and MCP servers are off. Saved to ${file}.`;
      return { ...after, text };
    },
    addProjectRule(rule) {
      const file = projectSettingsFiles(opts.cwd).at(-1)!;
      const before = current.settings.files.find((f) => f.file === file);
      // Trusted before (or nothing in it asked for trust): the user's own rule keeps it trusted.
      const keepTrust = !before || !needsTrust(before) || current.settings.trusted.includes(before);
      try {
        addPermissionRule(file, "allow", rule);
      } catch (err) {
        return { ...configured(), text: `Could not save ${rule} to ${file}: ${(err as Error).message}` };
      }
      const loaded = loadSettings(opts.cwd, loadConfig(configFilePath(env)).config, current.trustFile, env);
      const after = loaded.startup.files.find((f) => f.file === file);
      if (after && keepTrust)
        recordTrustOf(current.trustFile, opts.cwd, [
          { name: settingsTrustName(opts.cwd, file), hash: settingsTrustHash(after), decision: "allow" },
        ]);
      const text = keepTrust
        ? `Saved allow ${rule} to ${file}.`
        : `Saved allow ${rule} to ${file}; that file is not trusted, so it counts for this session only.`;
      return { ...reload(), text };
    },
    removeRule(rule, file) {
      try {
        const removed = removePermissionRule(file, rule);
        if (!removed) return { ...configured(), text: `${rule} is not in ${file}.` };
      } catch (err) {
        return { ...configured(), text: `Could not change ${file}: ${(err as Error).message}` };
      }
      // Taking a rule out grants nothing: a trusted file stays trusted.
      const was = current.settings.files.find((f) => f.file === file);
      if (was && current.settings.trusted.includes(was)) {
        const loaded = loadSettings(opts.cwd, loadConfig(configFilePath(env)).config, current.trustFile, env);
        const after = loaded.startup.files.find((f) => f.file === file);
        if (after)
          recordTrustOf(current.trustFile, opts.cwd, [
            { name: settingsTrustName(opts.cwd, file), hash: settingsTrustHash(after), decision: "allow" },
          ]);
      }
      return { ...reload(), text: `Removed ${rule} from ${file}.` };
    },
  };
}
