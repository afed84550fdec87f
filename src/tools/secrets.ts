// Values of secret-looking environment variables never reach the model, logs or session files.

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD)$/i;
/** Shorter values (e.g. "1", "true") would mask ordinary words. */
const MIN_SECRET_LENGTH = 6;
export const SECRET_MASK = "****";

export function secretValues(env: NodeJS.ProcessEnv = process.env): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_LENGTH && SECRET_NAME.test(name)) values.add(value);
  }
  // Longest first, so a secret that contains another one is masked whole.
  return [...values].sort((a, b) => b.length - a.length);
}

/** Replaces every value of an env var named *KEY, *TOKEN, *SECRET or *PASSWORD (length >= 6) with `****`. */
export function maskSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = text;
  for (const value of secretValues(env)) {
    if (out.includes(value)) out = out.split(value).join(SECRET_MASK);
  }
  return out;
}
