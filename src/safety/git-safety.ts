// Git runs more than its config says: some keys name programs git runs on ordinary reads
// (core.fsmonitor on `git status`, a clean filter on `git status`/`git diff`, a textconv or external
// diff driver on `git diff`/`git log -p`, gpg.program with log.showSignature), hooks in the hooks
// folder run with no key at all (githooks(5): post-index-change on a `git status` that rewrites the
// index), and a submodule brings its own config, attributes and hooks. A hostile clone, or a model
// that wrote into .git, would run code through them. So agent0's own git calls, and the read-only
// git commands the model runs unasked, run with all of these off; an allowlisted git command in a
// repository whose config names other programs asks first.
import { execFile } from "node:child_process";

/** Keys of the last config segment that name a program to run. */
const PROGRAM_SEGMENT =
  /\.(textconv|command|driver|clean|smudge|process|program|sshcommand|pager|editor|askpass|hookspath|fsmonitor|gitproxy|alternaterefscommand|packobjectshook|helper)$/;
const PROGRAM_KEY =
  /^(diff\.external|log\.showsignature|pager\.[^=]+|sequence\.editor|core\.editor|uploadpack\.[^=]+)$/;
/** core.fsmonitor=true/false selects the built-in daemon: not a program. */
const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;

/** Scopes that the repository (not the user) controls. */
const REPO_SCOPES: ReadonlySet<string> = new Set(["local", "worktree"]);

/** The config git sees here, with the scope (system, global, local, worktree, command) of each entry. */
async function listConfig(cwd: string): Promise<{ scope: string; key: string; value: string }[]> {
  const out = await new Promise<string>((done) =>
    // `git config` only reads files: it runs none of the programs it lists.
    execFile(
      "git",
      ["config", "--list", "--show-scope", "-z"],
      { cwd, encoding: "utf8", timeout: 3000, env: safeGitEnv() },
      (err, stdout) => done(err ? "" : stdout), // not a repository, or no git
    ),
  );
  // With -z each entry is `scope NUL key LF value NUL`.
  const fields = out.split("\0");
  const entries: { scope: string; key: string; value: string }[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i]!;
    const record = fields[i + 1]!;
    const nl = record.indexOf("\n");
    const key = nl < 0 ? record : record.slice(0, nl);
    entries.push({ scope, key: key.toLowerCase(), value: nl < 0 ? "" : record.slice(nl + 1) });
  }
  return entries;
}

/** Keys in the repository's own config that would make git run a program. */
export async function gitProgramKeys(cwd: string): Promise<string[]> {
  const keys = (await listConfig(cwd))
    .filter((e) => REPO_SCOPES.has(e.scope))
    .filter((e) => PROGRAM_SEGMENT.test(e.key) || PROGRAM_KEY.test(e.key))
    .filter((e) => !(e.key === "core.fsmonitor" && BOOLEAN.test(e.value.trim())))
    .filter((e) => !(e.key === "log.showsignature" && /^(false|no|off|0)$/i.test(e.value.trim())))
    .map((e) => e.key);
  return [...new Set(keys)];
}

/** Config that turns off what git runs beyond its config: hooks, fsmonitor, pagers, signatures, submodules. */
const SAFE_CONFIG: readonly [string, string][] = [
  ["core.fsmonitor", "false"],
  // githooks(5): hooks run from the hooks folder with no config key at all (post-index-change on a
  // plain `git status`); a path that is no folder holds none.
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["log.showSignature", "false"],
  // A submodule has its own config, attributes and hooks: git must not enter it.
  ["diff.ignoreSubmodules", "all"],
  ["status.submoduleSummary", "false"],
  ["submodule.recurse", "false"],
];

/** An external diff driver gets (path, old-file, old-hex, old-mode, new-file, new-hex, new-mode). */
const PLAIN_EXTERNAL_DIFF = 'f() { git --no-pager diff --no-index --no-ext-diff --no-textconv -- "$2" "$5"; true; }; f';

/** Per-name drivers: a clean/smudge filter, or a diff driver's textconv or external command. */
const DRIVER = /^(filter|diff)\.(.+)\.(clean|smudge|process|textconv|command)$/;

/**
 * The config for agent0's own git calls and for the read-only git commands the model runs unasked:
 * command-line config outranks the repository's, so none of its programs run. Filter and diff
 * drivers are per name, so each one the config defines (in any scope) is emptied.
 */
export async function safeGitConfig(cwd: string): Promise<[string, string][]> {
  const pairs: [string, string][] = [...SAFE_CONFIG];
  const emptied = new Set<string>();
  for (const { key } of await listConfig(cwd)) {
    const m = DRIVER.exec(key);
    if (!m || emptied.has(`${m[1]}.${m[2]}`)) continue;
    emptied.add(`${m[1]}.${m[2]}`);
    if (m[1] === "filter") {
      for (const part of ["clean", "smudge", "process"]) pairs.push([`filter.${m[2]}.${part}`, ""]);
      pairs.push([`filter.${m[2]}.required`, "false"]);
    } else {
      // A diff driver cannot be unset from the command line: its textconv becomes `cat` (the file as
      // it is), its external command a plain `git diff --no-index` of the two files git hands it.
      pairs.push([`diff.${m[2]}.textconv`, "cat"], [`diff.${m[2]}.command`, PLAIN_EXTERNAL_DIFF]);
    }
  }
  return pairs;
}

/** `-c` options for agent0's own git calls (shared by every git process agent0 starts for itself). */
export async function safeGitArgs(cwd: string): Promise<string[]> {
  return (await safeGitConfig(cwd)).flatMap(([k, v]) => ["-c", `${k}=${v}`]);
}

/**
 * The same config as environment (git >= 2.31 reads GIT_CONFIG_COUNT), for a read-only git
 * command the model runs: it reaches the git that the command line starts, and every git it starts.
 */
export async function safeGitConfigEnv(cwd: string): Promise<NodeJS.ProcessEnv> {
  const pairs = await safeGitConfig(cwd);
  const env: NodeJS.ProcessEnv = { GIT_CONFIG_COUNT: String(pairs.length), GIT_OPTIONAL_LOCKS: "0" };
  pairs.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}

/** Environment for agent0's own git calls: no system config, no pager, no prompts, no locks. */
export function safeGitEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PAGER: "cat",
    GIT_TERMINAL_PROMPT: "0",
  };
  delete out.GIT_EXTERNAL_DIFF;
  return out;
}
