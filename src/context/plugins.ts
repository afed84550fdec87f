// Agent Plugins 1.0 (agent-plugins.org; agent-plugins-spec spec/1.0.0.md): a folder with a
// `plugin.json`, skills in `skills/<name>/SKILL.md` and MCP servers in `mcp.json`, found in the
// user's `~/.agents/plugins/` and a project's `.agents/plugins/` — where Copilot CLI and the other
// clients of the format look. What a plugin brings is read here; whether it counts (enabled, and a
// project's only once trusted) is decided by the caller (cli/startup.ts).
import { createHash } from "node:crypto";
import { constants, openSync, readdirSync, readFileSync, realpathSync, closeSync } from "node:fs";
import { join, relative } from "node:path";
import type { McpServerConfig } from "../protocol/run-config.js";
import { parsePluginManifest, type PluginManifest } from "./plugin-manifest.js";
import { parsePluginMcp } from "./plugin-mcp.js";
import { confine, isInside, realOr } from "./plugin-root.js";

export type PluginScope = "user" | "project";

export interface LoadedPlugin {
  name: string;
  scope: PluginScope;
  /** The plugin's real root folder. */
  root: string;
  manifest: PluginManifest;
  /** Real paths of its SKILL.md files, each inside the root. */
  skills: string[];
  /** Its MCP servers by their names in mcp.json, ready to start. */
  servers: Record<string, McpServerConfig>;
  /** Problems with parts of it (skipped) and fields it has that agent0 ignores. */
  warnings: string[];
  /** Hash of everything it brings (manifest, mcp.json, each SKILL.md): what a trust decision is on. */
  hash: string;
}

/** Where plugins are installed: the user's first, then the project's. */
export function pluginFolders(cwd: string, home: string): { scope: PluginScope; dir: string }[] {
  return [
    { scope: "user", dir: join(home, ".agents", "plugins") },
    { scope: "project", dir: join(cwd, ".agents", "plugins") },
  ];
}

/** A plugin's PLUGIN_DATA (§9.1): in agent0's data folder, per project for a project's plugin. */
export function pluginDataDir(dataDir: string, scope: PluginScope, name: string, cwd: string): string {
  if (scope === "user") return join(dataDir, "plugin-data", "user", name);
  const project = createHash("sha256").update(realOr(cwd)).digest("hex").slice(0, 16);
  return join(dataDir, "plugin-data", `project-${project}`, name);
}

/** A file the confinement check resolved, read without following a link swapped in since. */
function readConfined(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** One plugin folder: what it brings, or why it is rejected as a whole (§5, §11.3). */
export function loadPlugin(
  dir: string,
  scope: PluginScope,
  dataFor: (name: string) => string,
): { ok: true; plugin: LoadedPlugin } | { ok: false; error: string } {
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    return { ok: false, error: `${dir}: cannot be read` };
  }
  const manifestAt = confine(root, "plugin.json");
  if (!manifestAt.ok || manifestAt.kind !== "file")
    return { ok: false, error: `${dir}: plugin.json ${manifestAt.ok ? "is not a file" : manifestAt.why}` };
  const manifestText = readConfined(manifestAt.path);
  const parsed = parsePluginManifest(join(dir, "plugin.json"), manifestText);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const name = parsed.manifest.name;
  const warnings = [...parsed.warnings];
  const hash = createHash("sha256").update(`plugin.json\0${manifestText}\0`);
  const skills = discoverSkills(dir, root, warnings, hash);
  const mcp = readMcp(dir, root, { root, data: dataFor(name), plugin: name }, warnings, hash);
  return {
    ok: true,
    plugin: {
      name,
      scope,
      root,
      manifest: parsed.manifest,
      skills,
      servers: mcp,
      warnings,
      hash: hash.digest("hex"),
    },
  };
}

/** §7.1: each child of `skills/` holding a regular `SKILL.md` inside the root; no deeper search. */
function discoverSkills(dir: string, root: string, warnings: string[], hash: ReturnType<typeof createHash>): string[] {
  const at = confine(root, "skills");
  if (!at.ok) {
    if (!at.missing) warnings.push(`${join(dir, "skills")}: ${at.why} — skills ignored`);
    return [];
  }
  if (at.kind !== "dir") {
    warnings.push(`${join(dir, "skills")}: not a folder — skills ignored`);
    return [];
  }
  const out: string[] = [];
  const entries = readdirSync(at.path).sort();
  for (const entry of entries) {
    const file = confine(root, `./skills/${entry}/SKILL.md`);
    if (!file.ok) {
      if (!file.missing) warnings.push(`${join(dir, "skills", entry, "SKILL.md")}: ${file.why} — skill skipped`);
      continue;
    }
    if (file.kind !== "file") continue;
    hash.update(`${relative(root, file.path)}\0${readConfined(file.path)}\0`);
    out.push(file.path);
  }
  return out;
}

function readMcp(
  dir: string,
  root: string,
  places: { root: string; data: string; plugin: string },
  warnings: string[],
  hash: ReturnType<typeof createHash>,
): Record<string, McpServerConfig> {
  const shown = join(dir, "mcp.json");
  const at = confine(root, "mcp.json");
  if (!at.ok) {
    if (!at.missing) warnings.push(`${shown}: ${at.why} — MCP servers of this plugin ignored`);
    return {};
  }
  if (at.kind !== "file") {
    warnings.push(`${shown}: not a file — MCP servers of this plugin ignored`);
    return {};
  }
  const text = readConfined(at.path);
  hash.update(`mcp.json\0${text}\0`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    warnings.push(`${shown}: not valid JSON (${(err as Error).message}) — MCP servers of this plugin ignored`);
    return {};
  }
  const read = parsePluginMcp(shown, raw, places);
  warnings.push(...read.warnings);
  return read.servers;
}

/**
 * Every plugin installed for the user and in the project, each folder on its own: a rejected one
 * becomes a warning. A project's plugin folder may not be a link out of its `.agents/plugins`
 * (the repository would pick up files from anywhere on the machine); the user's may (a plugin
 * being written elsewhere, linked in). A second plugin of one name in one place is skipped.
 */
export function discoverPlugins(opts: { cwd: string; home: string; dataDir: string }): {
  plugins: LoadedPlugin[];
  warnings: string[];
} {
  const plugins: LoadedPlugin[] = [];
  const warnings: string[] = [];
  for (const { scope, dir } of pluginFolders(opts.cwd, opts.home)) {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      continue;
    }
    const container = realOr(dir);
    const seen = new Set<string>();
    for (const entry of entries) {
      const folder = join(dir, entry);
      if (scope === "project" && !isInside(container, realOr(folder))) {
        warnings.push(`${folder}: a link out of the project's .agents/plugins — plugin ignored`);
        continue;
      }
      if (!isPluginFolder(folder)) continue;
      const loaded = loadPlugin(folder, scope, (name) => pluginDataDir(opts.dataDir, scope, name, opts.cwd));
      if (!loaded.ok) {
        warnings.push(`${loaded.error} — plugin ignored`);
        continue;
      }
      if (seen.has(loaded.plugin.name)) {
        warnings.push(`${folder}: a second plugin named ${loaded.plugin.name} in ${dir} — ignored`);
        continue;
      }
      seen.add(loaded.plugin.name);
      plugins.push(loaded.plugin);
    }
  }
  return { plugins, warnings };
}

/** A folder with a plugin.json (others, such as a data folder, are not plugins and say nothing). */
function isPluginFolder(folder: string): boolean {
  try {
    return readdirSync(folder).includes("plugin.json");
  } catch {
    return false;
  }
}
