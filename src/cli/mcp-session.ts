// The main thread's side of MCP for the TUI: what is configured, what the user trusts, and
// what goes to the worker (${ENV} expanded) — at boot, after a trust decision and at /new.
import type { McpConfigured, McpTrustDecision, McpTrustRequest } from "../protocol/mcp-state.js";
import { loadConfig } from "../context/config.js";
import { configFilePath } from "../context/dirs.js";
import { describeMcpServer, type McpServerSource } from "../context/mcp-config.js";
import { recordTrust, selectMcpServers } from "../context/mcp-trust.js";
import { expandServers, loadMcp, type McpStartup } from "./startup.js";

export interface McpSession {
  configured(): { mcp: McpConfigured; warnings: string[] };
  trust(decisions: { name: string; decision: McpTrustDecision }[]): { mcp: McpConfigured; warnings: string[] };
  reload(): { mcp: McpConfigured; warnings: string[] };
}

export function trustRequests(sources: readonly McpServerSource[]): McpTrustRequest[] {
  return sources.map((s) => ({ name: s.name, command: describeMcpServer(s.config), file: s.file }));
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
      pending: trustRequests(current.selection.pending),
      denied: trustRequests(current.selection.denied),
      trusted: trustedProjectServers(current),
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
      try {
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
  };
}
