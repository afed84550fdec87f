// Where MCP servers are configured, in the shapes users already have: agent0's config.json
// (the user's own: trusted to start), and a project's `.agent0/mcp.json` or Claude Code's
// `.mcp.json` at the project root (which start only once the user trusts them, see mcp-trust.ts).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import { lazily } from "./lazily.js";
import { MCP_TRANSPORTS, type McpServerConfig } from "../protocol/run-config.js";

/** Other clients' spellings of Streamable HTTP. */
const TRANSPORT_ALIASES: Record<string, string> = { "streamable-http": "http", streamableHttp: "http" };

export const mcpServerSchema = lazily(() =>
  z.object({
    type: z
      .preprocess((v) => (typeof v === "string" ? (TRANSPORT_ALIASES[v] ?? v) : v), z.enum(MCP_TRANSPORTS))
      .optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    url: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    trusted: z.boolean().optional(),
    timeout: z.number().int().positive().optional(),
    toolTimeout: z.number().int().positive().optional(),
  }),
);

export type McpScope = "user" | "project";

/** One configured server and where it came from. */
export interface McpServerSource {
  name: string;
  /** As written in the file (before ${ENV} expansion): what the user approves. */
  config: McpServerConfig;
  scope: McpScope;
  file: string;
}

/** The project files that can define servers, later ones winning on a name clash. */
export function projectMcpFiles(cwd: string): string[] {
  return [join(cwd, ".mcp.json"), join(cwd, ".agent0", "mcp.json")];
}

function issueText(issue: z.core.$ZodIssue): string {
  return issue.message.replace(/^Invalid (input|option):\s*/, "");
}

/** Validates each server on its own; a bad server is skipped with a warning naming it. */
export function parseMcpServers(
  file: string,
  raw: unknown,
  prefix: string,
): { servers: Record<string, McpServerConfig>; warnings: string[] } {
  const servers: Record<string, McpServerConfig> = {};
  const warnings: string[] = [];
  if (raw === undefined) return { servers, warnings };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    warnings.push(`${file}: ${prefix}: expected an object of servers — ignored`);
    return { servers, warnings };
  }
  for (const [name, value] of Object.entries(raw)) {
    const parsed = mcpServerSchema().safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = [prefix, name, ...issue.path].map(String).join(".");
      warnings.push(`${file}: ${where}: ${issueText(issue)} — server skipped`);
      continue;
    }
    const server = parsed.data;
    const problem = shapeProblem(server);
    if (problem) {
      warnings.push(`${file}: ${prefix}.${name}: ${problem} — server skipped`);
      continue;
    }
    servers[name] = server;
  }
  return { servers, warnings };
}

function shapeProblem(s: McpServerConfig): string | undefined {
  if (s.type === "stdio" && !s.command) return 'type "stdio" needs "command"';
  if ((s.type === "http" || s.type === "sse") && !s.url) return `type "${s.type}" needs "url"`;
  if (!s.command && !s.url) return 'needs "command" or "url"';
  return undefined;
}

function readServersFile(path: string): { servers: Record<string, McpServerConfig>; warnings: string[] } {
  if (!existsSync(path)) return { servers: {}, warnings: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    return { servers: {}, warnings: [`${path}: not valid JSON (${(err as Error).message}) — ignored`] };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { servers: {}, warnings: [`${path}: expected a JSON object — ignored`] };
  }
  return parseMcpServers(path, (parsed as Record<string, unknown>).mcpServers, "mcpServers");
}

/**
 * Every configured server with its source: the user's config first, then the project files.
 * A project file cannot mark its own servers trusted. A project server with the name of a user
 * server is listed as well; which one runs is decided with trust (see selectMcpServers).
 */
export function listMcpServers(
  cwd: string,
  user: { file: string; servers?: Record<string, McpServerConfig> },
): { servers: McpServerSource[]; warnings: string[] } {
  const servers: McpServerSource[] = Object.entries(user.servers ?? {}).map(([name, config]) => ({
    name,
    config,
    scope: "user",
    file: user.file,
  }));
  const warnings: string[] = [];
  const project = new Map<string, McpServerSource>();
  for (const file of projectMcpFiles(cwd)) {
    const read = readServersFile(file);
    warnings.push(...read.warnings);
    for (const [name, server] of Object.entries(read.servers)) {
      const { trusted: _ignored, ...config } = server;
      project.set(name, { name, config, scope: "project", file });
    }
  }
  servers.push(...project.values());
  return { servers, warnings };
}

/** `${VAR}` and `${VAR:-default}` (Claude Code's syntax) in command, args, env, url and headers. */
export function expandMcpEnv(
  name: string,
  config: McpServerConfig,
  env: NodeJS.ProcessEnv,
): { config: McpServerConfig; warnings: string[] } {
  // Agent Plugins 1.0 §9.2: a plugin's values were expanded by its own two variables, and no others.
  if (config.plugin !== undefined) return { config, warnings: [] };
  const missing = new Set<string>();
  const expand = (s: string) =>
    s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, variable: string, fallback?: string) => {
      const value = env[variable];
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      missing.add(variable);
      return "";
    });
  const map = (r: Record<string, string> | undefined) =>
    r ? Object.fromEntries(Object.entries(r).map(([k, v]) => [k, expand(v)])) : undefined;
  const out: McpServerConfig = { ...config };
  if (config.command !== undefined) out.command = expand(config.command);
  if (config.args) out.args = config.args.map(expand);
  if (config.url !== undefined) out.url = expand(config.url);
  if (config.env) out.env = map(config.env);
  if (config.headers) out.headers = map(config.headers);
  const warnings = [...missing].map((v) => `MCP server ${name}: \${${v}} is not set (used as an empty string)`);
  return { config: out, warnings };
}

/**
 * What a user approves, as one line: the environment it sets and the command line, or the
 * transport, URL and headers — unexpanded, so `${GITHUB_TOKEN}` sent to a project's URL is visible.
 */
export function describeMcpServer(config: McpServerConfig): string {
  if (config.command) {
    const env = Object.entries(config.env ?? {}).map(([k, v]) => `${k}=${shellQuote(v)}`);
    return [...env, ...[config.command, ...(config.args ?? [])].map(shellQuote)].join(" ");
  }
  const headers = Object.entries(config.headers ?? {}).map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`);
  return [`${config.type ?? "http"} ${config.url ?? "?"}`, ...headers].join(" ");
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
