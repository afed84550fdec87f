// Which shell commands may run without asking in `ask` mode: only a plain, single command
// from a read-only allowlist. Anything that could chain, redirect, substitute, expand or
// smuggle an option that writes or executes makes the command "not read-only".
//
// git reads the repository's own config and runs its hooks: an allowlisted git command runs with
// hooks, fsmonitor, filters, textconv and submodules turned off (git-safety.ts readOnlyGitEnv),
// and asks first when the repository's config names other programs (approval.ts).

import { writeOrRunOptions } from "../../safety/shell-options.js";
import { splitWords } from "../../safety/shell-words.js";
export { splitWords } from "../../safety/shell-words.js";

const SIMPLE_COMMANDS: ReadonlySet<string> = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "pwd",
  "echo",
  "grep",
  "egrep",
  "fgrep",
  "stat",
  "du",
  "df",
  "basename",
  "dirname",
  "realpath",
  "which",
  "whoami",
  "uname",
  "diff",
  "cmp",
]);

const GIT_READ_ONLY: ReadonlySet<string> = new Set([
  "status",
  "diff",
  "log",
  "show",
  "branch",
  "rev-parse",
  "ls-files",
  "blame",
  "remote",
]);
const GIT_BRANCH_LIST_FLAGS: ReadonlySet<string> = new Set([
  "-a",
  "--all",
  "-r",
  "--remotes",
  "-v",
  "-vv",
  "--verbose",
  "--list",
  "-l",
  "--show-current",
  "--merged",
  "--no-merged",
  "--no-color",
  "--color=never",
]);

export function isReadOnlyCommand(cmd: string): boolean {
  const words = splitWords(cmd);
  if (!words || words.length === 0) return false;
  const [name, ...args] = words as [string, ...string[]];
  // find -exec, rg --pre, git diff --output …: the one table of options that write or run.
  if (writeOrRunOptions(words).length > 0) return false;
  if (SIMPLE_COMMANDS.has(name)) return true;
  switch (name) {
    case "find":
    case "rg":
      return true;
    case "git":
      return gitIsReadOnly(args);
    default:
      return false;
  }
}

function gitIsReadOnly(args: string[]): boolean {
  // Global options (-c, -C, --git-dir, --exec-path, ...) come before the subcommand: none allowed.
  const [sub, ...rest] = args;
  if (!sub || !GIT_READ_ONLY.has(sub)) return false;
  if (sub === "branch") {
    // Listing only: a bare name would create a branch, -d/-m/-c... change them.
    const listing = rest.includes("--list") || rest.includes("-l");
    return rest.every((a) => GIT_BRANCH_LIST_FLAGS.has(a) || (listing && !a.startsWith("-")));
  }
  if (sub === "remote") return rest.every((a) => a === "-v" || a === "--verbose");
  return true;
}
