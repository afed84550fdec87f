// The main thread's side of MCP for the TUI: what is configured, what the user trusts, and
// what goes to the worker (${ENV} expanded) — at boot, after a trust decision and at /new.
import type { McpConfigured, McpTrustDecision, McpTrustRequest } from "../protocol/mcp-state.js";
import { loadConfig } from "../context/config.js";
import { configFilePath } from "../context/dirs.js";
import { describeMcpServer } from "../context/mcp-config.js";
import { recordTrust } from "../context/mcp-trust.js";
import { expandServers, loadMcp, type McpStartup } from "./startup.js";

export interface McpSession {
  configured(): { mcp: McpConfigured; warnings: string[] };
  trust(decisions: { name: string; decision: McpTrustDecision }[]): { mcp: McpConfigured; warnings: string[] };
  reload(): { mcp: McpConfigured; warnings: string[] };
}

export function trustRequests(startup: McpStartup): McpTrustRequest[] {
  return startup.selection.pending.map((s) => ({ name: s.name, command: describeMcpServer(s.config), file: s.file }));
}

export function createMcpSession(
  initial: McpStartup,
  opts: { cwd: string; trustProject: boolean; env?: NodeJS.ProcessEnv },
): McpSession {
  const env = opts.env ?? process.env;
  let current = initial;
  /** The servers to run with ${ENV} expanded (its warnings were given when the files were read). */
  const configured = (warnings: string[] = []) => ({
    mcp: { servers: expandServers(current.selection.run, env).servers, pending: trustRequests(current) },
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
      const chosen = decisions.flatMap(({ name, decision }) => {
        const source = current.selection.pending.find((s) => s.name === name);
        return source ? [{ source, decision }] : [];
      });
      try {
        recordTrust(current.trustFile, opts.cwd, chosen);
      } catch (err) {
        // Not remembered, but this session still does what the user said.
        const why = `Could not save the MCP trust decision to ${current.trustFile}: ${(err as Error).message}`;
        for (const { source, decision } of chosen)
          if (decision === "allow") current.selection.run[source.name] = source.config;
        current.selection.pending = current.selection.pending.filter((s) => !chosen.some((c) => c.source === s));
        return configured([why]);
      }
      return reload();
    },
    reload,
  };
}
