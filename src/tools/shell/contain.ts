// Children that cannot slip away. Every shell command runs in its own pid namespace (bubblewrap,
// the filesystem bound as it is): when the command's shell exits, or agent0 dies, the kernel ends
// everything inside, also what cleared its environment (`env -i`), left the session (`setsid -f`)
// or forked twice. Inside, /proc is the namespace's own: agent0's process, and the secrets of its
// environment, are not there to read (`/proc/$PPID/environ` is bwrap's, which only ever held the
// command's scrubbed environment).
//
// Where bubblewrap is missing or the system refuses namespaces, the command runs as before and the
// process tag (process-tag.ts) is the fallback: see README "Security model" for what remains.

/** bwrap's options for a pid namespace and nothing else: the same files, devices and network. */
const CONTAIN_ARGS = [
  "--bind",
  "/",
  "/",
  "--dev-bind",
  "/dev",
  "/dev",
  // A /proc of the namespace: only its own processes are seen.
  "--proc",
  "/proc",
  "--unshare-pid",
  // SIGKILL to all inside when bwrap's parent (agent0's thread that started it) dies.
  "--die-with-parent",
];

/** The fd on which bwrap reports the started command; nothing there means it could not set up. */
export const CONTAIN_INFO_FD = 3;

/** `argv` run in a pid namespace of its own (the caller falls back to `argv` alone when bwrap cannot start it). */
export function containedArgv(argv: readonly string[]): { file: string; args: string[] } {
  return { file: "bwrap", args: [...CONTAIN_ARGS, "--info-fd", String(CONTAIN_INFO_FD), "--", ...argv] };
}

/** bwrap's argv for `true` in the same namespace a command gets: whether commands can be contained here. */
export function containProbeArgv(): string[] {
  return [...CONTAIN_ARGS, "--", "true"];
}
