import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

type Env = Record<string, string | undefined>;

/** The user's home folder, taken from the environment so tests can point it at a temp dir. */
export function homeDir(env: Env = process.env): string {
  return env.HOME && env.HOME.length > 0 ? env.HOME : (env.USERPROFILE ?? "/");
}

/** `$XDG_CONFIG_HOME/agent0`, or `~/.config/agent0` when XDG_CONFIG_HOME is unset or relative. */
export function configDir(env: Env = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec says relative values are invalid and must be ignored.
  if (xdg && xdg.startsWith("/")) return join(xdg, "agent0");
  return join(homeDir(env), ".config", "agent0");
}

/** `config.json` inside the config folder. */
export function configFilePath(env: Env = process.env): string {
  return join(configDir(env), "config.json");
}

/**
 * The package's built-in `skills/` folder. This file lives at `src/context/dirs.ts`
 * (tests) or `dist/context/dirs.js` (built), so the package root is two folders up.
 */
export function builtinSkillsDir(): string {
  return resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "skills");
}
