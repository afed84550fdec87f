// `agent0 plugins install <path|git url>` and `agent0 plugins list`: an Agent Plugin (agent-plugins-
// spec spec/1.0.0.md) copied or cloned into ~/.agents/plugins/<its name>, where every client of the
// format finds it. It is read by the same rules as at start-up before anything is kept, so a
// folder agent0 would reject is never installed; a clone runs no hook and fetches no submodule.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { configDir, configFilePath, dataDir, homeDir } from "../context/dirs.js";
import { loadPlugin, pluginDataDir, pluginFolders, type LoadedPlugin } from "../context/plugins.js";
import { safeGitEnv } from "../safety/git-safety.js";
import { loadConfig } from "../context/config.js";
import { mcpTrustFile } from "../context/mcp-trust.js";
import { pluginServerName, pluginViews } from "../context/plugin-select.js";
import { formatPlugins } from "../ui/update/plugins.js";
import { loadPlugins } from "./startup.js";

/** A source that names a repository rather than a folder on this machine. */
export function isGitSource(source: string): boolean {
  return /^(https?|ssh|git|file):\/\//.test(source) || /^[\w.-]+@[\w.-]+:/.test(source);
}

function clone(url: string, into: string): Promise<string | undefined> {
  const args = ["-c", "core.hooksPath=/dev/null", "clone", "--depth", "1", "--no-recurse-submodules", "--", url, into];
  return new Promise((done) =>
    execFile("git", args, { env: safeGitEnv(), timeout: 120_000 }, (err, _out, stderr) =>
      done(err ? (stderr.trim().split("\n").at(-1) ?? err.message) : undefined),
    ),
  );
}

/** What a plugin brings, in a line or two. */
export function describeBrings(p: LoadedPlugin): string {
  const skills = p.skills.map((f) => `/${f.split("/").at(-2)}`);
  const servers = Object.keys(p.servers).map((s) => pluginServerName(p.name, s));
  const parts = [
    skills.length ? `skills: ${skills.join(" ")}` : "",
    servers.length ? `MCP: ${servers.join(", ")}` : "",
  ];
  return parts.filter(Boolean).join(" · ") || "no skills and no MCP servers";
}

/**
 * Installs from `source` for the user whose home `env` names. The exit code and the lines to print
 * (stdout for what was done, stderr for what went wrong or was skipped).
 */
export async function installPlugin(
  source: string,
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): Promise<{ code: number; out: string[]; err: string[] }> {
  const home = homeDir(env);
  const target = pluginFolders(cwd, home)[0]!.dir;
  mkdirSync(target, { recursive: true });
  // Staged beside the target, so the final move is a rename on one file system.
  const stage = mkdtempSync(join(target, ".install-"));
  try {
    let folder: string;
    if (isGitSource(source)) {
      folder = join(stage, "clone");
      const failed = await clone(source, folder);
      if (failed) return { code: 1, out: [], err: [`Could not clone ${source}: ${failed}`] };
    } else {
      folder = resolve(cwd, source);
      if (!existsSync(folder) || !statSync(folder).isDirectory())
        return { code: 1, out: [], err: [`${source}: not a folder (give a plugin's folder or a git URL)`] };
    }
    const read = loadPlugin(folder, "user", (name) => pluginDataDir(dataDir(env), "user", name, cwd));
    if (!read.ok) return { code: 1, out: [], err: [`Not an Agent Plugin agent0 can use: ${read.error}`] };
    const plugin = read.plugin;
    const dest = join(target, plugin.name);
    if (existsSync(dest))
      return { code: 1, out: [], err: [`${dest} exists: a plugin named ${plugin.name} is installed already.`] };
    if (folder.startsWith(stage)) renameSync(folder, dest);
    else cpSync(folder, dest, { recursive: true, verbatimSymlinks: true });
    const installed = loadPlugin(dest, "user", () => pluginDataDir(dataDir(env), "user", plugin.name, cwd));
    const now = installed.ok ? installed.plugin : plugin;
    return {
      code: 0,
      out: [
        `Installed ${plugin.name}${plugin.manifest.version ? ` ${plugin.manifest.version}` : ""} in ${dest}: ${describeBrings(now)}.`,
      ],
      err: now.warnings.map((w) => `warning: ${w}`),
    };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** `agent0 plugins list`: every plugin found here, as /plugins shows them (trust from the same store). */
export function listPlugins(env: NodeJS.ProcessEnv, cwd = process.cwd()): { out: string; err: string[] } {
  const { enabledPlugins } = loadConfig(configFilePath(env)).config;
  const loaded = loadPlugins(cwd, enabledPlugins, mcpTrustFile(configDir(env)), false, env);
  const footer = "agent0 plugins install <path|git url> · in the app: /plugins enable|disable|trust <name>";
  return {
    out: formatPlugins(pluginViews(loaded.selection), footer),
    err: loaded.warnings.map((w) => `warning: ${w}`),
  };
}
