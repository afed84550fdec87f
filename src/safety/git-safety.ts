// Git reads the repository's own config, and some keys name programs git runs on ordinary reads:
// core.fsmonitor on `git status`, a clean filter on `git status`/`git diff`, a textconv or external
// diff driver on `git diff`/`git log -p`, gpg.program with log.showSignature. A hostile clone (or a
// model that edited .git/config) would run code through them. So agent0's own git calls run with
// those keys neutralised, and an allowlisted git command in such a repository asks first.
import { execFile } from "node:child_process";

/** Keys of the last config segment that name a program to run. */
const PROGRAM_SEGMENT =
  /\.(textconv|command|driver|clean|smudge|process|program|sshcommand|pager|editor|askpass|hookspath|fsmonitor|gitproxy|alternaterefscommand|packobjectshook|helper)$/;
const PROGRAM_KEY =
  /^(diff\.external|log\.showsignature|pager\.[^=]+|sequence\.editor|core\.editor|uploadpack\.[^=]+)$/;
/** core.fsmonitor=true/false selects the built-in daemon: not a program. */
const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;

/** Scopes that the repository (not the user) controls. */
const REPO_SCOPES = new Set(["local", "worktree"]);

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

/**
 * `-c` overrides for agent0's own git calls: command-line config outranks the repository's, so
 * none of its programs run. Filter drivers are per name, so each one found is emptied.
 */
export async function safeGitArgs(cwd: string): Promise<string[]> {
  const args = [
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.pager=cat",
    "-c",
    "log.showSignature=false",
  ];
  const filters = new Set<string>();
  for (const key of await gitProgramKeys(cwd)) {
    const m = /^filter\.(.+)\.(clean|smudge|process)$/.exec(key);
    if (m) filters.add(m[1]!);
  }
  for (const name of filters) {
    for (const part of ["clean", "smudge", "process"]) args.push("-c", `filter.${name}.${part}=`);
    args.push("-c", `filter.${name}.required=false`);
  }
  return args;
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
