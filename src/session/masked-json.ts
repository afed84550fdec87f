import { maskSecrets, secretValues } from "../safety/secrets.js";

/**
 * JSON text of `value` with every secret masked (see tools/secrets.ts). The whole-text check keeps the
 * common case (no secret anywhere) to one scan; only a hit pays for the walk over every string.
 */
export function maskedJson(value: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const json = JSON.stringify(value);
  const secrets = cachedSecrets(env);
  // Cached whole values first (cheap); then pieces, .env lines and URL passwords.
  if (!secrets.some((s) => json.includes(JSON.stringify(s).slice(1, -1))) && maskSecrets(json, env) === json)
    return json;
  return JSON.stringify(maskStrings(value, env));
}

function maskStrings(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === "string") return maskSecrets(value, env);
  if (Array.isArray(value)) return value.map((v) => maskStrings(v, env));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[maskSecrets(k, env)] =
        k === "images" && Array.isArray(v) ? v.map((i) => maskImage(i, env)) : maskStrings(v, env);
    return out;
  }
  return value;
}

/**
 * An image's base64 is left whole: a run of it that happens to spell a piece of a secret is not
 * the secret, and a masked piece would make the image unreadable when the session is resumed.
 */
function maskImage(image: unknown, env: NodeJS.ProcessEnv): unknown {
  if (image === null || typeof image !== "object" || typeof (image as { data?: unknown }).data !== "string")
    return maskStrings(image, env);
  const { data, ...rest } = image as { data: string };
  return { ...(maskStrings(rest, env) as object), data };
}

// eslint-disable-next-line no-restricted-syntax -- a cache of a pure function: the secret values of one environment, briefly
let cache: { env: NodeJS.ProcessEnv; at: number; values: string[] } | undefined;

/**
 * secretValues, read again at most once a second: reading process.env walks the C environment,
 * which costs more than the rest of writing a line (an answer streaming is saved every 4 KB).
 */
function cachedSecrets(env: NodeJS.ProcessEnv): string[] {
  const now = Date.now();
  if (cache?.env !== env || now - cache.at > 1000) cache = { env, at: now, values: secretValues(env) };
  return cache.values;
}
