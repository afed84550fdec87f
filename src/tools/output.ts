// What of a tool's output a model reads, in one place: the limit, and masking before truncation.
// The runner applies it to every tool result; the user's own !command (cli/tool-use.ts) too.
import type { RunConfig } from "../protocol/run-config.js";
import { configDefaults } from "../context/config-defaults.js";
import { maskSecrets } from "../safety/secrets.js";
import { projectSecretValues } from "../safety/secret-files.js";

/** Characters of one tool's output the model reads: the config's outputLimit, or the default when it is not positive. */
export function outputLimit(config: Pick<RunConfig, "outputLimit">): number {
  return config.outputLimit > 0 ? config.outputLimit : configDefaults.outputLimit;
}

/**
 * Output for the model: secrets masked first (a cut must never leave half a secret unmasked), then
 * truncated. With the project folder, the values of its .env-like files count as secrets too,
 * whichever program printed them.
 */
export function forModel(text: string, limit: number, cwd?: string, addDirs?: readonly string[]): string {
  const known = cwd === undefined ? [] : projectSecretValues(cwd, addDirs);
  return truncateOutput(maskSecrets(text, process.env, known), limit);
}

/** Over the limit: the first half and the last quarter of the limit, with a count of what was cut. */
export function truncateOutput(s: string, limit: number): string {
  if (s.length <= limit) return s;
  const head = Math.floor(limit / 2);
  const tail = Math.floor(limit / 4);
  return joinTruncated(s.slice(0, head), s.length - head - tail, tail > 0 ? s.slice(-tail) : "");
}

export function joinTruncated(head: string, cut: number, tail: string): string {
  return `${head}\n[... ${cut} chars truncated ...]\n${tail}`;
}
