import os from "node:os";
import path from "node:path";

type Env = NodeJS.ProcessEnv;

/** The XDG base-directory rule: use the variable only when it holds an absolute path. */
function xdgDir(env: Env, variable: string, fallback: string[]): string {
  const value = env[variable];
  if (value && path.isAbsolute(value)) return path.join(value, "agent0");
  const home = env.HOME || os.homedir();
  return path.join(home, ...fallback, "agent0");
}

/** `$XDG_DATA_HOME/agent0`, else `~/.local/share/agent0`. */
export function dataDir(env: Env = process.env): string {
  return xdgDir(env, "XDG_DATA_HOME", [".local", "share"]);
}

/** `$XDG_CONFIG_HOME/agent0`, else `~/.config/agent0`. */
export function configDir(env: Env = process.env): string {
  return xdgDir(env, "XDG_CONFIG_HOME", [".config"]);
}

export function sessionsDir(env: Env = process.env): string {
  return path.join(dataDir(env), "sessions");
}

export function logsDir(env: Env = process.env): string {
  return path.join(dataDir(env), "logs");
}
