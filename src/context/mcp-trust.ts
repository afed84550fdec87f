// Trust for a project's own MCP servers: a cloned repository's `.agent0/mcp.json` or `.mcp.json`
// names a command, and starting it runs that repository's code. So a project server starts only
// once the user approved it, and the answer is remembered per project and per definition (a changed
// command asks again) in the user's config folder, never in the project, where the project could
// pre-approve itself.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { McpServerConfig } from "../protocol/run-config.js";
import type { McpServerSource } from "./mcp-config.js";
import { realOr } from "./plugin-root.js";

export type McpTrustDecision = "allow" | "deny";

interface TrustRecord {
  hash: string;
  decision: McpTrustDecision;
  at: string;
}

interface TrustStore {
  version: 1;
  /** Real path of the project folder -> server name -> the decision on one definition. */
  projects: Record<string, Record<string, TrustRecord>>;
}

export function mcpTrustFile(configDir: string): string {
  return join(configDir, "mcp-trust.json");
}

/** What was approved: everything that decides what runs or where it connects (not timeouts). */
export function definitionHash(config: McpServerConfig): string {
  const { type, command, args, env, url, headers, cwd } = config;
  // cwd only when set: definitions approved before a server could name one keep their approval.
  const stable = JSON.stringify({
    type,
    command,
    args,
    env: sorted(env),
    url,
    headers: sorted(headers),
    ...(cwd !== undefined ? { cwd } : {}),
  });
  return createHash("sha256").update(stable).digest("hex");
}

function sorted(r: Record<string, string> | undefined): [string, string][] | undefined {
  return r ? Object.entries(r).sort(([a], [b]) => a.localeCompare(b)) : undefined;
}

function projectKey(cwd: string): string {
  return realOr(cwd);
}

function readStore(file: string): TrustStore {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<TrustStore>;
    if (parsed && typeof parsed.projects === "object" && parsed.projects !== null) {
      return { version: 1, projects: parsed.projects };
    }
  } catch {
    // Missing or unreadable: nothing is trusted yet.
  }
  return { version: 1, projects: {} };
}

/** The remembered decision for this exact definition, if any. */
export function lookupTrust(file: string, cwd: string, source: McpServerSource): McpTrustDecision | undefined {
  return lookupTrustOf(file, cwd, source.name, definitionHash(source.config));
}

/**
 * The remembered decision on anything a project ships that runs or grants (an MCP server, a
 * settings file's hooks and allow rules), by its name in the store and the hash of what was approved.
 */
export function lookupTrustOf(file: string, cwd: string, name: string, hash: string): McpTrustDecision | undefined {
  const record = readStore(file).projects[projectKey(cwd)]?.[name];
  return record && record.hash === hash ? record.decision : undefined;
}

export function recordTrust(
  file: string,
  cwd: string,
  decisions: { source: McpServerSource; decision: McpTrustDecision }[],
  now = new Date(),
): void {
  recordTrustOf(
    file,
    cwd,
    decisions.map(({ source, decision }) => ({ name: source.name, hash: definitionHash(source.config), decision })),
    now,
  );
}

export function recordTrustOf(
  file: string,
  cwd: string,
  decisions: { name: string; hash: string; decision: McpTrustDecision }[],
  now = new Date(),
): void {
  const store = readStore(file);
  const key = projectKey(cwd);
  const project = (store.projects[key] ??= {});
  for (const { name, hash, decision } of decisions) {
    project[name] = { hash, decision, at: now.toISOString() };
  }
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(store, null, 2)}\n`, { encoding: "utf8", mode: 0o600 });
  renameSync(tmp, file);
}

export interface McpSelection {
  /** What runs, by name (definitions as written; expand ${ENV} before starting). */
  run: Record<string, McpServerConfig>;
  /** Project servers nobody decided on yet (or whose definition changed since). */
  pending: McpServerSource[];
  /** Project servers the user said no to. */
  denied: McpServerSource[];
}

/**
 * Which servers start: the user's own always; a project's once approved (or with
 * --trust-project-mcp). An approved project server replaces a user server of the same name.
 */
export function selectMcpServers(
  sources: readonly McpServerSource[],
  decide: (source: McpServerSource) => McpTrustDecision | undefined,
): McpSelection {
  const selection: McpSelection = { run: {}, pending: [], denied: [] };
  for (const source of sources) {
    if (source.scope === "user") {
      selection.run[source.name] = source.config;
      continue;
    }
    const decision = decide(source);
    if (decision === "allow") selection.run[source.name] = source.config;
    else if (decision === "deny") selection.denied.push(source);
    else selection.pending.push(source);
  }
  return selection;
}
