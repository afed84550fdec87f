// The main thread's side of MCP for the TUI: what is configured, what the user trusts, and
// what goes to the worker (${ENV} expanded) — at boot, after a trust decision and at /new.
import type { McpConfigured, McpTrustDecision, McpTrustRequest } from "../protocol/mcp-state.js";
import { loadConfig } from "../context/config.js";
import { configFilePath } from "../context/dirs.js";
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
import { addPermissionRule, removePermissionRule } from "../context/settings-write.js";

export interface McpSession {
  configured(): { mcp: McpConfigured; warnings: string[] };
  trust(decisions: { name: string; decision: McpTrustDecision }[]): { mcp: McpConfigured; warnings: string[] };
  reload(): { mcp: McpConfigured; warnings: string[] };
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
        ...trustRequests(current.selection.pending),
        ...current.settings.pending.map((s) => settingsRequest(opts.cwd, s)),
      ],
      denied: [
        ...trustRequests(current.selection.denied),
        ...current.settings.denied.map((s) => settingsRequest(opts.cwd, s)),
      ],
      trusted: [
        ...trustedProjectServers(current),
        ...current.settings.trusted.map((s) => settingsTrustName(opts.cwd, s.file)),
      ],
      settings: {
        hooks: current.settings.hooks ?? {},
        rules: current.settings.rules,
        ...(current.settings.statusLine ? { statusLine: current.settings.statusLine } : {}),
      },
    },
    warnings,
  });
  const reload = () => {
    const loaded = loadMcp(opts.cwd, loadConfig(configFilePath(env)).config, opts.trustProject, env);
    current = loaded.startup;
    return configured(loaded.warnings);
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
