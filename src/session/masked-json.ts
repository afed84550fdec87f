import { maskSecrets } from "../tools/secrets.js";

/**
 * JSON text of `value` with every secret masked (see tools/secrets.ts). The whole-text check keeps the
 * common case (no secret anywhere) to one scan; only a hit pays for the walk over every string.
 */
export function maskedJson(value: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const json = JSON.stringify(value);
  if (maskSecrets(json, env) === json) return json;
  return JSON.stringify(maskStrings(value, env));
}

function maskStrings(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === "string") return maskSecrets(value, env);
  if (Array.isArray(value)) return value.map((v) => maskStrings(v, env));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[maskSecrets(k, env)] = maskStrings(v, env);
    return out;
  }
  return value;
}
