// Paths whose files configure programs that run later (git hooks and config, agent0, editors,
// shells): a write there asks in every mode but yolo (agent/approval-rules.ts), and a shell
// redirection there keeps a permission rule from allowing the command (context/permission-rules.ts).
import path from "node:path";

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
