// Files that are secrets by their name (.env*, *.pem, id_*, .npmrc, .git-credentials, credentials…):
// the model is shown their keys, never their values, on every path — read_file, grep_files, `@`,
// and the shell (their values join the known secrets that secrets.ts masks in any spelling).
import fs from "node:fs";
import path from "node:path";

/** What stands where a secret was. */
export const SECRET_MASK = "****";

/** Names of files that hold secrets (compared on the base name, case-insensitively). */
const SECRET_FILE =
  /^(\.env(\..+)?|.+\.env|.+\.(pem|key|p12|pfx|jks|keystore)|id_(rsa|dsa|ecdsa|ed25519)(_sk)?|\.npmrc|\.pypirc|\.netrc|_netrc|\.pgpass|\.git-credentials|credentials(\.json)?|\.htpasswd|secrets?\.(json|ya?ml|toml))$/i;

export function isSecretFileName(file: string): boolean {
  return SECRET_FILE.test(path.basename(file));
}

const PEM_BEGIN = /^-----BEGIN [A-Z0-9 ]+-----\s*$/;
const PEM_END = /^-----END [A-Z0-9 ]+-----\s*$/;
/** A line that holds no value: blank, a comment, an INI section header. */
const NO_VALUE = /^\s*([#;].*|\[[^\]]*\]\s*)?$/;
/** `key=value` (the first `=`), else `key: value` / `key:value`, else `.netrc`'s `password value`. */
const ASSIGNMENT = /^(\s*(?:export\s+)?[^=\s][^=]*?\s*=\s*|\s*[^:\s][^:]*?:\s*|.*?\bpassword\s+)(\S.*)$/i;

/** One line of a secret file with its value masked: the key stays, the value goes; a bare value goes whole. */
export function maskSecretLine(line: string): string {
  if (NO_VALUE.test(line) || PEM_BEGIN.test(line) || PEM_END.test(line)) return line;
  const m = ASSIGNMENT.exec(line);
  return m ? `${m[1]}${SECRET_MASK}` : SECRET_MASK;
}

/** A secret file's text with every value masked: keys, comments, sections and PEM armour stay. */
export function maskSecretFile(text: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" || line === "\r" ? line : maskSecretLine(line)))
    .join("\n");
}

/** The values of a secret file that are worth masking wherever they appear: long enough to be no common word. */
function valuesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (NO_VALUE.test(line) || PEM_BEGIN.test(line) || PEM_END.test(line)) continue;
    const m = ASSIGNMENT.exec(line);
    const value = (m ? m[2]! : line).trim().replace(/^(["'])(.*)\1$/, "$2");
    // "production" or "3000" would mask ordinary words: a value counts when long, or when it mixes letters and digits.
    if (value.length >= 16 || (value.length >= 8 && /[A-Za-z]/.test(value) && /\d/.test(value))) out.push(value);
  }
  return out;
}

/** Bigger files are no configuration: not read for values. */
const MAX_SECRET_FILE_BYTES = 64 * 1024;

/**
 * The values in the secret files at the top of the project and of each `--add-dir` folder
 * (`.env`, `.npmrc`…), read now: a shell command may print them through any program, so they are
 * masked like the environment's secrets.
 */
export function projectSecretValues(cwd: string, addDirs: readonly string[] = []): string[] {
  return [cwd, ...addDirs].flatMap(topSecretValues);
}

function topSecretValues(cwd: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(cwd).filter(isSecretFileName);
  } catch {
    return [];
  }
  const values: string[] = [];
  for (const name of names) {
    try {
      const file = path.join(cwd, name);
      const stat = fs.lstatSync(file);
      if (!stat.isFile() || stat.size > MAX_SECRET_FILE_BYTES) continue;
      values.push(...valuesOf(fs.readFileSync(file, "utf8")));
    } catch {
      // gone, or not ours to read
    }
  }
  return values;
}

/**
 * Whether a shell command names a file of the project that is a secret by its name (`cat
 * config/.env`, `sort < .env`): then its whole output is shown as a secret file's, keys without
 * values. The words are split roughly, at blanks, quotes and shell operators; a name counts when
 * such a file exists.
 */
export function namesSecretFile(command: string, cwd: string): boolean {
  return command
    .split(/[\s;|&<>()'"`=]+/)
    .some((word) => word !== "" && isSecretFileName(word) && fs.existsSync(path.resolve(cwd, word)));
}

/** A command's output as the model may see it: keys without values when it names a secret file. */
export function maskSecretFileOutput(command: string, cwd: string, output: string): string {
  return namesSecretFile(command, cwd) ? maskSecretFile(output) : output;
}
