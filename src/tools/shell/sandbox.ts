// `--sandbox` (config `sandbox: "workspace-write"`): each shell command runs under bubblewrap.
// The whole filesystem is read-only except the project folder and a private /tmp; credential
// folders in the home and agent0's own data are hidden; there is no network (a fresh network
// namespace has only its own loopback) and no view of the host's processes. No host socket either:
// /run is empty, the variables that name sockets are unset, and a seccomp filter refuses AF_UNIX
// sockets (seccomp.ts), since a read-only bind still leaves a socket file connectable. Inside the
// project, the files that make programs run later (git hooks and config, agent0's and editors'
// folders) stay read-only, as in Codex's workspace-write sandbox: the user's next `git commit`
// outside runs nothing a sandboxed command planted. bwrap is called directly (see README "Security
// model" for why not @anthropic-ai/sandbox-runtime).
// eslint-disable-next-line no-restricted-imports -- the probe runs `bwrap … true`, which leaves nothing behind
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { unixSocketFilter } from "./seccomp.js";

/** Home folders and files that hold credentials: a sandboxed command sees them empty. */
const HIDDEN_IN_HOME = [
  ".ssh",
  ".aws",
  ".azure",
  ".gnupg",
  ".kube",
  ".docker",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
];
const HIDDEN_IN_CONFIG = ["gcloud", "gh", "agent0", "git/credentials"];
/** agent0's data: other sessions, the input history. */
const HIDDEN_IN_DATA = ["agent0"];
/** Variables that name a host socket or agent. */
const SOCKET_VARS = /^(SSH_AUTH_SOCK|SSH_AGENT_PID|GPG_AGENT_INFO|XDG_RUNTIME_DIR|DOCKER_HOST|DBUS_.*)$/;
/** Project folders and files that configure programs which run later, outside the sandbox. */
const CONTROL_IN_PROJECT = [".agent0", ".claude", ".vscode", ".idea", ".envrc"];
/** The fd on which bwrap reads the seccomp filter. */
export const SECCOMP_FD = 3;

/** Why the sandbox cannot run here (the error text), or undefined when it can. */
export function sandboxProblem(): string | undefined {
  const probe = spawnSync("bwrap", [...baseArgs(os.tmpdir()), "true"], { encoding: "utf8", timeout: 5000 });
  if (probe.error) {
    const code = (probe.error as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? "bubblewrap (bwrap) is not installed: install it (e.g. apt-get install bubblewrap) or run without --sandbox."
      : `bubblewrap could not start: ${probe.error.message}`;
  }
  if (probe.status !== 0) {
    const why = probe.stderr.trim() || `exit code ${probe.status}`;
    return `bubblewrap cannot create a sandbox here: ${why} (it needs user namespaces; see README "Security model").`;
  }
  return undefined;
}

function baseArgs(cwd: string): string[] {
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--bind",
    cwd,
    cwd,
    // No network, no host processes, no IPC; everything inside dies with bwrap.
    "--unshare-all",
    "--die-with-parent",
    // A new session: a sandboxed command cannot push keys into the user's terminal (TIOCSTI).
    "--new-session",
    "--chdir",
    cwd,
  ];
}

function hiddenPaths(cwd: string, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME ?? os.homedir();
  const configHome = env.XDG_CONFIG_HOME ?? path.join(home, ".config");
  const dataHome = env.XDG_DATA_HOME ?? path.join(home, ".local", "share");
  const all = [
    ...HIDDEN_IN_HOME.map((p) => path.join(home, p)),
    ...HIDDEN_IN_CONFIG.map((p) => path.join(configHome, p)),
    ...HIDDEN_IN_DATA.map((p) => path.join(dataHome, p)),
  ];
  // Never hide the project itself (or a folder holding it).
  return all.filter((p) => fs.existsSync(p) && !(cwd + path.sep).startsWith(p + path.sep));
}

const isDir = (p: string) => fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;

/** The repository control files of the project's own `.git` folder (and its submodules'), and where hooks live. */
function gitControlPaths(cwd: string): string[] {
  const git = path.join(cwd, ".git");
  if (!isDir(git)) return []; // a .git file points elsewhere: outside the project, read-only already
  const repos = [git];
  const modules = path.join(git, "modules");
  if (isDir(modules)) for (const name of fs.readdirSync(modules)) repos.push(path.join(modules, name));
  const out: string[] = [];
  for (const repo of repos) {
    // A missing hooks folder is made, so that it is there to hold read-only (git init makes it anyway).
    const hooks = path.join(repo, "hooks");
    if (!fs.existsSync(hooks)) fs.mkdirSync(hooks, { recursive: true });
    out.push(hooks, path.join(repo, "config"), path.join(repo, "info"));
    // core.hooksPath inside the project (e.g. .husky) holds hooks too.
    const config = fs.readFileSync(path.join(repo, "config"), { encoding: "utf8", flag: "r" });
    for (const m of config.matchAll(/^\s*hookspath\s*=\s*"?([^"\n]+?)"?\s*$/gim)) out.push(path.resolve(cwd, m[1]!));
  }
  return out;
}

/** Paths inside the project that stay read-only in the sandbox (those that exist). */
export function controlPaths(cwd: string): string[] {
  let git: string[];
  try {
    git = gitControlPaths(cwd);
  } catch {
    git = [];
  }
  const inside = (p: string) => p.startsWith(cwd + path.sep);
  return [...git, ...CONTROL_IN_PROJECT.map((p) => path.join(cwd, p))].filter((p) => inside(p) && fs.existsSync(p));
}

/**
 * The bwrap command line that runs `argv` in the sandbox for the project at `cwd` (and the
 * `--add-dir` folders, writable by the same rules), and the seccomp filter to write on fd SECCOMP_FD.
 */
export function sandboxArgv(
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  addDirs: readonly string[] = [],
): { file: string; args: string[]; seccomp: Buffer } {
  const args = baseArgs(cwd);
  // Before the hidden paths and control files below, which are mounted over them.
  for (const dir of addDirs) args.push("--bind", dir, dir);
  // No host sockets: /run (and a /var/run that is no link to it) empty.
  args.push("--tmpfs", "/run");
  if (isDir("/var/run") && !fs.lstatSync("/var/run").isSymbolicLink()) args.push("--tmpfs", "/var/run");
  for (const p of hiddenPaths(cwd, env)) {
    if (fs.statSync(p).isDirectory()) args.push("--tmpfs", p);
    else args.push("--ro-bind", "/dev/null", p);
  }
  for (const p of [cwd, ...addDirs].flatMap(controlPaths)) args.push("--ro-bind", p, p);
  for (const name of Object.keys(env)) if (SOCKET_VARS.test(name)) args.push("--unsetenv", name);
  args.push("--seccomp", String(SECCOMP_FD));
  return { file: "bwrap", args: [...args, "--", ...argv], seccomp: unixSocketFilter() };
}
