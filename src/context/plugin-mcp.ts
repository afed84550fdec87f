// A plugin's `mcp.json` (agent-plugins-spec spec/1.0.0.md §7.2, §9; schemas/1.0.0/mcp.schema.json):
// a closed union of stdio, streamable-http and sse servers, each judged on its own. `command` is
// one executable — a bare name found on PATH, or a `./` path inside the plugin — never a shell
// line; `${PLUGIN_ROOT}` and `${PLUGIN_DATA}` are replaced once in args, env and cwd and nothing
// else is expanded (no `${HOME}`, no `${GITHUB_TOKEN}`: a plugin reads no secret by naming it).
import type { McpServerConfig } from "../protocol/run-config.js";
import { MCP_SCHEMA_1_0 } from "./plugin-manifest.js";
import { confine, isInside } from "./plugin-root.js";

export interface PluginPlaces {
  /** The plugin's real root. */
  root: string;
  /** Its data folder (PLUGIN_DATA): made before a server starts, kept across updates. */
  data: string;
  /** The plugin's name, kept on each server it defines. */
  plugin: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
const isStringMap = (v: unknown): v is Record<string, string> =>
  isObject(v) && Object.values(v).every((s) => typeof s === "string");

const FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  stdio: new Set(["type", "command", "args", "env", "cwd"]),
  "streamable-http": new Set(["type", "url", "headers"]),
  sse: new Set(["type", "url", "headers"]),
};
const RESERVED_ENV: ReadonlySet<string> = new Set(["PLUGIN_ROOT", "PLUGIN_DATA"]);
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** §9.2: one pass over the text; what a replacement brings in is never scanned again. */
export function expandPluginVars(text: string, places: PluginPlaces): string {
  return text.replace(/\$\{(PLUGIN_ROOT|PLUGIN_DATA)\}/g, (_m, v: string) =>
    v === "PLUGIN_ROOT" ? places.root : places.data,
  );
}

/** `mcp.json`'s parsed JSON -> servers agent0 can start, each bad one skipped with the reason. */
export function parsePluginMcp(
  file: string,
  raw: unknown,
  places: PluginPlaces,
): { servers: Record<string, McpServerConfig>; warnings: string[] } {
  const servers: Record<string, McpServerConfig> = {};
  const warnings: string[] = [];
  const fail = (why: string) => ({ servers, warnings: [`${file}: ${why} — MCP servers of this plugin ignored`] });
  if (!isObject(raw)) return fail("expected a JSON object");
  if (raw.$schema !== MCP_SCHEMA_1_0)
    return fail(`$schema ${JSON.stringify(raw.$schema)} is not "${MCP_SCHEMA_1_0}" (the version of plugin.json)`);
  const extra = Object.keys(raw).filter((k) => k !== "$schema" && k !== "mcpServers");
  if (extra.length) return fail(`${extra.join(", ")}: not a field of mcp.json`);
  if (!isObject(raw.mcpServers)) return fail("mcpServers: expected an object of servers");
  for (const [name, value] of Object.entries(raw.mcpServers)) {
    // JSON.parse keeps "__proto__" as a key; written into a plain object it would set the prototype.
    const read = name === "__proto__" ? "not a usable server name" : readServer(value, places);
    if (typeof read === "string") warnings.push(`${file}: mcpServers.${name}: ${read} — server skipped`);
    else servers[name] = read;
  }
  return { servers, warnings };
}

/** One server entry: its config, or why it may not run. */
function readServer(raw: unknown, places: PluginPlaces): McpServerConfig | string {
  if (!isObject(raw)) return "expected an object";
  const type = raw.type;
  const fields = typeof type === "string" ? FIELDS[type] : undefined;
  if (!fields) return `type ${JSON.stringify(type)} is not stdio, streamable-http or sse`;
  const extra = Object.keys(raw).filter((k) => !fields.has(k));
  if (extra.length) return `${extra.join(", ")}: not a field of a ${String(type)} server`;
  return type === "stdio" ? readStdio(raw, places) : readRemote(raw, type === "sse" ? "sse" : "http", places);
}

function readStdio(raw: Record<string, unknown>, places: PluginPlaces): McpServerConfig | string {
  if (typeof raw.command !== "string" || !raw.command) return "command: expected one executable";
  if (raw.args !== undefined && !isStrings(raw.args)) return "args: expected a list of strings";
  if (raw.env !== undefined && !isStringMap(raw.env)) return "env: expected an object of strings";
  const reserved = Object.keys(raw.env ?? {}).filter((k) => RESERVED_ENV.has(k));
  if (reserved.length) return `env: ${reserved.join(", ")} is set by agent0, not by a plugin`;
  const command = commandOf(raw.command, places.root);
  if (!command.ok) return `command: ${command.why}`;
  const cwd = raw.cwd === undefined ? { ok: true as const, path: places.root } : cwdOf(raw.cwd, places);
  if (!cwd.ok) return `cwd: ${cwd.why}`;
  const expand = (s: string) => expandPluginVars(s, places);
  const env = Object.fromEntries(
    Object.entries((raw.env ?? {}) as Record<string, string>).map(([k, v]) => [k, expand(v)]),
  );
  return {
    type: "stdio",
    command: command.path,
    args: ((raw.args ?? []) as string[]).map(expand),
    // §9.1: the plugin's own variables last, over anything its env says.
    env: { ...env, PLUGIN_ROOT: places.root, PLUGIN_DATA: places.data },
    cwd: cwd.path,
    plugin: places.plugin,
  };
}

/** §7.2.1: a bare executable name, or a `./` path to a file inside the plugin. */
function commandOf(command: string, root: string): { ok: true; path: string } | { ok: false; why: string } {
  if (command.startsWith("./")) {
    const inside = confine(root, command);
    if (!inside.ok) return inside;
    if (inside.kind !== "file") return { ok: false, why: `${command} is not a file` };
    return { ok: true, path: inside.path };
  }
  if (/[\s/\\]/.test(command) || command === "." || command === ".." || /[\u0000-\u001f]/.test(command))
    return {
      ok: false,
      why: `${JSON.stringify(command)} is not one executable: give a bare name (found on PATH) or a ./ path inside the plugin`,
    };
  return { ok: true, path: command };
}

/** §7.2.1: `./…`, `${PLUGIN_ROOT}…` inside the root, or `${PLUGIN_DATA}…` inside the data folder. */
function cwdOf(raw: unknown, places: PluginPlaces): { ok: true; path: string } | { ok: false; why: string } {
  if (typeof raw !== "string") return { ok: false, why: "expected a string" };
  if (/^\$\{PLUGIN_DATA\}(\/|$)/.test(raw)) {
    const path = expandPluginVars(raw, places);
    const rel = path.slice(places.data.length).replace(/^\//, "");
    if (rel.split("/").includes("..") || !isInside(places.data, path))
      return { ok: false, why: `${raw} leads out of the plugin's data folder` };
    return { ok: true, path };
  }
  const rel = raw.startsWith("./")
    ? raw
    : /^\$\{PLUGIN_ROOT\}(\/|$)/.test(raw)
      ? `./${raw.slice(15).replace(/^\//, "")}`
      : undefined;
  if (rel === undefined) return { ok: false, why: `${raw} is not ./…, \${PLUGIN_ROOT}… or \${PLUGIN_DATA}…` };
  const inside = confine(places.root, rel);
  if (!inside.ok) return inside;
  if (inside.kind !== "dir") return { ok: false, why: `${raw} is not a folder` };
  return { ok: true, path: inside.path };
}

/** §7.2.1: an absolute URL, HTTPS unless loopback, no user information or fragment; headers literal. */
function readRemote(
  raw: Record<string, unknown>,
  type: "http" | "sse",
  places: PluginPlaces,
): McpServerConfig | string {
  if (typeof raw.url !== "string") return "url: expected a string";
  let url: URL;
  try {
    url = new URL(raw.url);
  } catch {
    return `url: ${raw.url} is not an absolute URL`;
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.test(url.hostname)))
    return `url: ${raw.url} must use https (http only on localhost or a loopback address)`;
  if (url.username || url.password) return "url: may not hold a user name or password";
  if (raw.url.includes("#")) return "url: may not hold a fragment";
  if (raw.headers !== undefined && !isStringMap(raw.headers)) return "headers: expected an object of strings";
  const names = Object.keys(raw.headers ?? {}).map((h) => h.toLowerCase());
  if (new Set(names).size !== names.length) return "headers: the same header twice in different cases";
  return {
    type,
    url: raw.url,
    ...(raw.headers ? { headers: raw.headers as Record<string, string> } : {}),
    plugin: places.plugin,
  };
}
