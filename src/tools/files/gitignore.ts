// .gitignore rules as git applies them: every folder's .gitignore counts for the paths below
// it, the deepest file with an opinion wins (so `!name` re-includes), and .git/info/exclude
// counts at the root. .git and node_modules are always skipped.
import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

export const ALWAYS_SKIPPED: ReadonlySet<string> = new Set([".git", "node_modules"]);

export class ProjectIgnore {
  private readonly rules = new Map<string, Ignore | null>();
  private readonly dirVerdicts = new Map<string, boolean>();

  /** `root` is the real path of the project folder. */
  constructor(private readonly root: string) {}

  /** `rel` is relative to the root with `/` separators, e.g. "src/a.ts". */
  ignores(rel: string, isDir: boolean): boolean {
    const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
    if (parts.length === 0) return false;
    if (parts.some((p) => ALWAYS_SKIPPED.has(p))) return true;
    // A file inside an ignored folder is ignored, whatever the rules say about the file.
    for (let i = 1; i < parts.length; i++) {
      if (this.dirIgnored(parts.slice(0, i).join("/"))) return true;
    }
    return this.verdict(parts, isDir);
  }

  private dirIgnored(dirRel: string): boolean {
    let verdict = this.dirVerdicts.get(dirRel);
    if (verdict === undefined) {
      verdict = this.verdict(dirRel.split("/"), true);
      this.dirVerdicts.set(dirRel, verdict);
    }
    return verdict;
  }

  private verdict(parts: string[], isDir: boolean): boolean {
    let ignored = false;
    for (let depth = 0; depth < parts.length; depth++) {
      const dirRel = parts.slice(0, depth).join("/");
      const rules = this.rulesFor(dirRel);
      if (!rules) continue;
      const below = parts.slice(depth).join("/") + (isDir ? "/" : "");
      const result = rules.test(below);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  private rulesFor(dirRel: string): Ignore | null {
    if (this.rules.has(dirRel)) return this.rules.get(dirRel) ?? null;
    const dir = path.join(this.root, dirRel);
    const texts = [readText(path.join(dir, ".gitignore"))];
    if (dirRel === "") texts.push(readText(path.join(dir, ".git", "info", "exclude")));
    const content = texts.filter((t) => t !== "").join("\n");
    const rules = content.trim() === "" ? null : ignore().add(content);
    this.rules.set(dirRel, rules);
    return rules;
  }
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
