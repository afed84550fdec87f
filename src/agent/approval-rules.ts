// The rules that make a call ask even where the mode would let it run: writes to paths that
// configure programs (git, editors, shells, agent0 itself; safety/protected-paths.ts), and
// allowlisted shell reads that reach outside the project. Each returns the reason shown in the
// dialog, or undefined.
import fs from "node:fs";
import path from "node:path";
import { splitWords } from "../tools/shell/safety.js";
import { isInside, realpathLoose } from "../safety/paths.js";
import { hardLinkNames, linksLeadingOut, LINK_WALK_MAX } from "../tools/files/links.js";

/** Commands whose arguments are printed, not read: a path there reads nothing. */
const NO_PATH_ARGS: ReadonlySet<string> = new Set(["echo", "basename", "dirname", "which", "whoami", "uname", "pwd"]);

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
 * Paths outside the project (and the `--add-dir` folders) that an allowlisted command would read
 * (absolute, `..`, or a symlink leading out); empty when it stays inside. Unparseable commands are
 * not allowlisted anyway.
 */
export function outsidePaths(command: string, cwd: string, addDirs: readonly string[] = []): string[] {
  const words = splitWords(command);
  if (!words || words.length === 0) return [];
  const [name, ...args] = words as [string, ...string[]];
  if (NO_PATH_ARGS.has(name)) return [];
  const roots = [realpathLoose(path.resolve(cwd)), ...addDirs];
  const out: string[] = [];
  for (const arg of args) {
    for (const cand of pathCandidates(arg)) {
      if (cand === "") continue;
      // git revisions (HEAD:path, a..b) name objects, not files.
      if (name === "git" && /^[^/]*:|\.\.[^/]/.test(cand) && !cand.startsWith("../")) continue;
      const resolved = realpathLoose(path.resolve(cwd, cand));
      const root = roots.find((r) => isInside(r, resolved));
      if (!root) out.push(cand);
      else if (hardLinkedOut(resolved, root)) out.push(`${cand} (a hard link to a file outside)`);
    }
  }
  return out;
}

/** A regular file that is also a file outside the project (or may be: the project is too big to tell). */
function hardLinkedOut(abs: string, root: string): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    return false;
  }
  return hardLinkNames(abs, stat, root) !== "inside";
}

/** A short option cluster (`-rN`, `-nR`) holding `letter`. */
const inCluster = (arg: string, letter: string) => /^-[A-Za-z]+$/.test(arg) && arg.includes(letter);

/** Whether an allowlisted command reads recursively and follows the symbolic links it meets. */
function followsLinks(name: string, args: string[]): boolean {
  const has = (...flags: string[]) => args.some((a) => flags.includes(a));
  switch (name) {
    case "grep":
    case "egrep":
    case "fgrep":
      return has("--dereference-recursive") || args.some((a) => inCluster(a, "R"));
    case "diff":
      // GNU diff compares what a link points to unless told --no-dereference.
      return (has("--recursive") || args.some((a) => inCluster(a, "r"))) && !has("--no-dereference");
    case "find":
      return has("-L", "-follow");
    case "rg":
      return has("--follow") || args.some((a) => inCluster(a, "L"));
    case "ls":
      return args.some((a) => inCluster(a, "R")) && (has("--dereference") || args.some((a) => inCluster(a, "L")));
    case "du":
      return has("--dereference") || args.some((a) => inCluster(a, "L"));
    default:
      return false;
  }
}

/**
 * Why an allowlisted recursive read that follows links must ask: the trees it reads hold links
 * leading out of the project (or are too big to check). The outside-path check sees only the
 * arguments; this sees where the command goes.
 */
export function followedLinksReason(command: string, cwd: string): string | undefined {
  const words = splitWords(command);
  if (!words || words.length === 0) return undefined;
  const [name, ...args] = words as [string, ...string[]];
  if (!followsLinks(name, args)) return undefined;
  const root = realpathLoose(path.resolve(cwd));
  const dirs = args
    .filter((a) => !a.startsWith("-"))
    .map((a) => path.resolve(cwd, a))
    .filter((p) => {
      try {
        return fs.statSync(p).isDirectory();
      } catch {
        return false;
      }
    });
  const { out, complete } = linksLeadingOut(dirs.length ? dirs : [root], root);
  if (out.length) return `Follows links that lead out of the project: ${out.join(", ")}`;
  if (!complete) return `Follows links in a tree of over ${LINK_WALK_MAX} entries that cannot all be checked.`;
  return undefined;
}
