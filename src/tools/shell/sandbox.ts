// `--sandbox` (config `sandbox: "workspace-write"`): each shell command runs under bubblewrap.
// The whole filesystem is read-only except the project folder and a private /tmp; credential
// folders in the home are hidden; there is no network (a fresh network namespace has only its own
// loopback) and no view of the host's processes. bwrap is called directly (see README "Security
// model" for why not @anthropic-ai/sandbox-runtime).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Home folders and files that hold credentials: a sandboxed command sees them empty. */
const HIDDEN_IN_HOME = [".ssh", ".aws", ".azure", ".gnupg", ".kube", ".docker", ".netrc", ".npmrc", ".pypirc"];
const HIDDEN_IN_CONFIG = ["gcloud", "gh", "agent0"];

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
  const all = [
    ...HIDDEN_IN_HOME.map((p) => path.join(home, p)),
    ...HIDDEN_IN_CONFIG.map((p) => path.join(configHome, p)),
  ];
  // Never hide the project itself (or a folder holding it).
  return all.filter((p) => fs.existsSync(p) && !(cwd + path.sep).startsWith(p + path.sep));
}

/** The bwrap command line that runs `argv` in the sandbox for the project at `cwd`. */
export function sandboxArgv(argv: string[], cwd: string, env: NodeJS.ProcessEnv): { file: string; args: string[] } {
  const args = baseArgs(cwd);
  for (const p of hiddenPaths(cwd, env)) {
    if (fs.statSync(p).isDirectory()) args.push("--tmpfs", p);
    else args.push("--ro-bind", "/dev/null", p);
  }
  return { file: "bwrap", args: [...args, "--", ...argv] };
}
