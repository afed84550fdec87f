import { SECRET_MASK, isSecretFileName, maskSecretLine } from "./secret-files.js";

// Secrets never reach the model, logs or session files. First layer: shell commands get an
// environment without secret-looking variables (scrubEnv). Second layer, on all tool output and
// everything saved: masking of known secret values — whole, or any piece of 8+ characters of
// one (also reversed, base64 or hex), `.env`-style `NAME=value` lines whose name looks secret,
// and passwords in URLs (`postgres://user:pass@host`).

/** Names that look secret: *KEY (not KEYBOARD), *TOKEN*, *SECRET*, *PASSWORD*, *CREDENTIAL*... */
const SECRET_NAME =
  /(^|_)(API)?KEYS?($|_)|KEY$|TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|CREDENTIAL|PRIVATE|(^|_)AUTH($|_)|(^|_)DSN$|DATABASE_URL|SESSION_ID$/i;
/** Shorter values (e.g. "1", "true") would mask ordinary words. */
const MIN_SECRET_LENGTH = 6;
/** A run of this many characters of a known secret is masked wherever it appears. */
const PIECE = 8;
export { SECRET_MASK };

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A URL's password, if it carries one: `scheme://user:password@host`. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi;

export function secretValues(env: NodeJS.ProcessEnv = process.env): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (value.length >= MIN_SECRET_LENGTH && isSecretName(name)) values.add(value);
    if (!value.includes("://")) continue;
    for (const m of value.matchAll(URL_PASSWORD)) if (m[2]!.length >= MIN_SECRET_LENGTH) values.add(m[2]!);
  }
  // Longest first, so a secret that contains another one is masked whole.
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * The environment for a child process: every secret-looking variable (and any whose value holds
 * a URL password) removed, except the names the user allows in the config (`shellEnv.allow`).
 */
export function scrubEnv(env: NodeJS.ProcessEnv, allow: readonly string[] = []): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!isSecretVariable(name, value) || allow.includes(name)) out[name] = value;
  }
  return out;
}

/** A variable a child process must not get: a secret-looking name, or a value holding a URL password. */
export function isSecretVariable(name: string, value: string): boolean {
  URL_PASSWORD.lastIndex = 0;
  return isSecretName(name) || URL_PASSWORD.test(value);
}

/** How a secret may be spelled out by a command: as is, reversed, in base64 (any alignment) or hex. */
function spellings(value: string): string[] {
  const out = [value, [...value].reverse().join(""), Buffer.from(value).toString("hex")];
  for (let shift = 0; shift < 3; shift++) {
    // base64 of the value after `shift` leading bytes: the inner characters are stable.
    const b64 = Buffer.from("\0".repeat(shift) + value).toString("base64");
    out.push(b64.slice(shift === 0 ? 0 : 4, b64.length - 4));
  }
  return out.filter((s) => s.length >= PIECE);
}

/** Pieces are found by their 4-character parts at every 4th position first: a full scan is too slow. */
const QUAD = 4;

// eslint-disable-next-line no-restricted-syntax -- a cache of a pure function: the secret values of one environment
let cached: { key: string; values: string[]; pieces: Set<string>; quads: Set<string> } | undefined;

function secretsOf(
  env: NodeJS.ProcessEnv,
  extra: readonly string[],
): { values: string[]; pieces: Set<string>; quads: Set<string> } {
  const values = extra.length
    ? [...new Set([...secretValues(env), ...extra])].sort((a, b) => b.length - a.length)
    : secretValues(env);
  const key = values.join("\0");
  if (cached?.key === key) return cached;
  const pieces = new Set<string>();
  const quads = new Set<string>();
  for (const value of values)
    for (const spelled of spellings(value)) {
      for (let i = 0; i + PIECE <= spelled.length; i++) pieces.add(spelled.slice(i, i + PIECE));
      for (let i = 0; i + QUAD <= spelled.length; i++) quads.add(spelled.slice(i, i + QUAD));
    }
  cached = { key, values, pieces, quads };
  return cached;
}

/**
 * What a program puts before a file's line: a line number (`cat -n`, read_file: `    12\t`; `grep -n`:
 * `12:`), grep's `file:` / `file:12:` / `file-12-`, diff's `< ` / `> ` / `+` / `-`.
 */
const LINE_PREFIX = String.raw`(?:\s*\d+[\t:-]|[^\s:]+:(?:\d+:)?\s?|[^\s:]+-\d+-|[<>] |[+-])?`;
/** `NAME=value` / `NAME: value` / `export NAME="value"` lines whose name looks secret, after any such prefix. */
const ENV_LINE = new RegExp(
  String.raw`^(${LINE_PREFIX}\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*[=:]\s*)(["']?)([^\s"'#()[\]{}<>,;$\x60\\]{6,})\3(?![(\[\w.])`,
  "gm",
);
/**
 * `NAME=value` anywhere on a line (`curl -H TOKEN=…`, `.npmrc`'s `:_authToken=…`). A value that reads
 * as code is left: a call or index (`getToken()`, `os.environ[…]`), or a dotted name (`config.apiKey`).
 */
const ASSIGN_ANYWHERE =
  /(^|[^A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]*)(\s*=\s*)(["']?)([^\s"'#()[\]{}<>,;$`\\]{6,})\4(?![([\w.])/gm;
const CODE_VALUE = /^([A-Za-z_$][\w$]*)(\.[A-Za-z_$][\w$]*)+$|^(undefined|null|None|true|false|nil)$/;

function maskEnvLines(text: string): string {
  if (!/[=:]/.test(text)) return text;
  const lines = text.replace(ENV_LINE, (line, head: string, name: string, quote: string, value: string) =>
    isSecretName(name) && !CODE_VALUE.test(value) ? `${head}${quote}${SECRET_MASK}${quote}` : line,
  );
  if (!lines.includes("=")) return lines;
  return lines.replace(
    ASSIGN_ANYWHERE,
    (all, before: string, name: string, eq: string, quote: string, value: string) =>
      isSecretName(name) && !CODE_VALUE.test(value) ? `${before}${name}${eq}${quote}${SECRET_MASK}${quote}` : all,
  );
}

/** grep's `file:12:text` / `file:text` / `file-12-text` lines of a file that is a secret by its name. */
const GREP_LINE = /^([^\s:]+?)(:(?:\d+[:-])?\s?|-\d+-)(.*)$/gm;

function maskSecretFileLines(text: string): string {
  return text.replace(GREP_LINE, (all, file: string, sep: string, rest: string) =>
    isSecretFileName(file) && rest !== "" ? `${file}${sep}${maskSecretLine(rest)}` : all,
  );
}

/** Where a piece of PIECE characters of a secret starts: found through its aligned 4-character part. */
function pieceStarts(text: string, pieces: Set<string>, quads: Set<string>): number[] {
  const starts: number[] = [];
  let last = -1;
  // A piece starting at i holds the 4 characters at the multiple of 4 in [i, i + 4].
  for (let j = 0; j + QUAD <= text.length; j += QUAD) {
    if (!quads.has(text.slice(j, j + QUAD))) continue;
    for (let i = Math.max(last + 1, j - QUAD); i <= j && i + PIECE <= text.length; i++) {
      if (pieces.has(text.slice(i, i + PIECE))) starts.push(i);
      last = i;
    }
  }
  return starts;
}

/** Every place where 8+ characters of a known secret appear, merged into ranges. */
function maskPieces(text: string, pieces: Set<string>, quads: Set<string>): string {
  if (pieces.size === 0 || text.length < PIECE) return text;
  const starts = pieceStarts(text, pieces, quads);
  if (starts.length === 0) return text;
  let out = "";
  let copied = 0;
  let maskEnd = -1;
  for (const i of starts) {
    // A new masked range starts here, or the current one grows.
    if (i > maskEnd) out += text.slice(copied, i) + SECRET_MASK;
    maskEnd = i + PIECE;
    copied = maskEnd;
  }
  return out + text.slice(copied);
}

/**
 * Masks known secret values (whole and in pieces; the environment's and `extra`, e.g. the project's
 * `.env` values), secret `NAME=value` assignments, lines of secret files and URL passwords with `****`.
 */
export function maskSecrets(text: string, env: NodeJS.ProcessEnv = process.env, extra: readonly string[] = []): string {
  const { values, pieces, quads } = secretsOf(env, extra);
  let out = text;
  for (const value of values) {
    if (out.includes(value)) out = out.split(value).join(SECRET_MASK);
  }
  out = maskPieces(out, pieces, quads);
  out = maskEnvLines(out);
  out = maskSecretFileLines(out);
  if (!out.includes("://")) return out;
  return out.replace(URL_PASSWORD, (_m, head: string, _pw: string, at: string) => `${head}${SECRET_MASK}${at}`);
}
