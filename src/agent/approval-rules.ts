// The rules that make a call ask even where the mode would let it run: writes to paths that
// configure programs (git, editors, shells, agent0 itself), and allowlisted shell reads that reach
// outside the project. Each returns the reason shown in the dialog, or undefined.
import fs from "node:fs";
import path from "node:path";
import { splitWords } from "../tools/shell/safety.js";

/** Folders whose files configure programs that run later: git hooks and config, agent0, editors. */
const PROTECTED_DIRS: ReadonlySet<string> = new Set([".git", ".agent0", ".claude", ".vscode", ".idea"]);
/** Files that make git or a shell run something. */
const PROTECTED_FILES: ReadonlySet<string> = new Set([
  ".gitattributes",
  ".gitmodules",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".envrc",
]);

/** Why a write to `file` (relative to the project or absolute) must ask, in every mode but yolo. */
export function protectedPathReason(file: string, cwd: string): string | undefined {
  const rel = path.relative(cwd, path.resolve(cwd, file));
  const parts = rel.split(path.sep).filter((p) => p !== "" && p !== ".");
  const dir = parts.slice(0, -1).find((p) => PROTECTED_DIRS.has(p.toLowerCase()));
  if (dir) return `${rel} is inside ${dir}/, which configures programs that run later: always asked.`;
  const name = (parts[parts.length - 1] ?? "").toLowerCase();
  if (PROTECTED_DIRS.has(name)) return `${rel} is a protected folder: always asked.`;
  if (PROTECTED_FILES.has(name)) return `${rel} makes git or a shell run commands: always asked.`;
  return undefined;
}

/** Commands whose arguments are printed, not read: a path there reads nothing. */
const NO_PATH_ARGS: ReadonlySet<string> = new Set(["echo", "basename", "dirname", "which", "whoami", "uname", "pwd"]);

/** Resolves symlinks along the longest existing prefix of `p`. */
function realish(p: string): string {
  let head = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(head), ...rest.reverse());
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return p;
      rest.push(path.basename(head));
      head = parent;
    }
  }
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** What an argument may name as a path: itself, an option's `=value`, or a short option's glued value. */
function pathCandidates(arg: string): string[] {
  if (!arg.startsWith("-")) return [arg];
  const eq = arg.indexOf("=");
  if (eq > 0) return [arg.slice(eq + 1)];
  // -f/etc/passwd, -f../x: a short option with its value glued on.
  if (/^-[A-Za-z][/.]/.test(arg)) return [arg.slice(2)];
  return [];
}

/**
 * Paths outside the project that an allowlisted command would read (absolute, `..`, or a symlink
 * leading out); empty when it stays inside. Unparseable commands are not allowlisted anyway.
 */
export function outsidePaths(command: string, cwd: string): string[] {
  const words = splitWords(command);
  if (!words || words.length === 0) return [];
  const [name, ...args] = words as [string, ...string[]];
  if (NO_PATH_ARGS.has(name)) return [];
  const root = realish(path.resolve(cwd));
  const out: string[] = [];
  for (const arg of args) {
    for (const cand of pathCandidates(arg)) {
      if (cand === "") continue;
      // git revisions (HEAD:path, a..b) name objects, not files.
      if (name === "git" && /^[^/]*:|\.\.[^/]/.test(cand) && !cand.startsWith("../")) continue;
      const resolved = realish(path.resolve(cwd, cand));
      if (!inside(root, resolved)) out.push(cand);
    }
  }
  return out;
}
