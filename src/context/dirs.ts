// Where agent0 keeps its files: one XDG rule for every folder, used by both threads.
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

type Env = Record<string, string | undefined>;

/** The user's home folder, taken from the environment so tests can point it at a temp dir. */
export function homeDir(env: Env = process.env): string {
  return env.HOME || os.homedir();
}

/**
 * The XDG base-directory rule: `$VARIABLE/agent0` when the variable holds an absolute path (the
 * spec says relative values are invalid and must be ignored), else `~/<fallback>/agent0`.
 */
function xdgDir(env: Env, variable: string, fallback: string[]): string {
  const value = env[variable];
  if (value && path.isAbsolute(value)) return path.join(value, "agent0");
  return path.join(homeDir(env), ...fallback, "agent0");
}

/** `$XDG_CONFIG_HOME/agent0`, else `~/.config/agent0`. */
export function configDir(env: Env = process.env): string {
  return xdgDir(env, "XDG_CONFIG_HOME", [".config"]);
}

/** `$XDG_DATA_HOME/agent0`, else `~/.local/share/agent0`. */
export function dataDir(env: Env = process.env): string {
  return xdgDir(env, "XDG_DATA_HOME", [".local", "share"]);
}

/** `$XDG_CACHE_HOME/agent0`, else `~/.cache/agent0`: what can be made again, such as compiled code. */
export function cacheDir(env: Env = process.env): string {
  return xdgDir(env, "XDG_CACHE_HOME", [".cache"]);
}

/** `config.json` inside the config folder. */
export function configFilePath(env: Env = process.env): string {
  return path.join(configDir(env), "config.json");
}

export function sessionsDir(env: Env = process.env): string {
  return path.join(dataDir(env), "sessions");
}

export function logsDir(env: Env = process.env): string {
  return path.join(dataDir(env), "logs");
}

/**
 * The package's built-in `skills/` folder. This file lives at `src/context/dirs.ts` (tests),
 * `dist/context/dirs.js` (tsc) or in a chunk of `dist/bundle/` (the bundle): the package root is
 * two folders up from each.
 */
export function builtinSkillsDir(): string {
  return path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "skills");
}
