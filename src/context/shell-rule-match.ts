// How a shell rule's specifier meets a command line (context/permission-rules.ts decides with it):
// the line's simple commands, their words apart from their redirections, and the options that
// write or run. Claude Code's forms: `prefix:*`, `*` wildcards, an exact command
// (code.claude.com/docs/en/permissions, "Bash").
import { writeOrRunOptions } from "../safety/shell-options.js";
import { redirectionRisk, splitRedirections } from "../safety/shell-redirects.js";
import { splitWords } from "../safety/shell-words.js";

/**
 * The simple commands of a compound one (`a && b; c | d`), with the contents of `$(…)` and
 * backticks as commands of their own. Quotes are respected.
 */
export function simpleCommands(command: string): string[] {
  const out: string[] = [];
  let current = "";
  let quote: string | null = null;
  const flush = () => {
    if (current.trim()) out.push(current.trim());
    current = "";
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (quote === '"' && (c === "`" || (c === "$" && command[i + 1] === "("))) {
        // Substitutions expand inside double quotes: their commands count too.
        const inner = substitution(command, i);
        out.push(...simpleCommands(inner.text));
        i = inner.end;
        current += "…";
        continue;
      }
      current += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      current += c;
    } else if (
      c === "`" ||
      (c === "$" && command[i + 1] === "(") ||
      ((c === "<" || c === ">") && command[i + 1] === "(")
    ) {
      const inner = substitution(command, i);
      out.push(...simpleCommands(inner.text));
      i = inner.end;
      current += "…";
    } else if (c === ";" || c === "\n" || c === "|" || c === "&") {
      // `2>&1` and `&>` are redirections, not separators.
      if (c === "&" && (command[i - 1] === ">" || command[i + 1] === ">")) current += c;
      else flush();
    } else current += c;
  }
  flush();
  return out;
}

/** The text of a `$(…)`, `<(…)` or backtick substitution starting at `at`, and where it ends. */
function substitution(s: string, at: number): { text: string; end: number } {
  if (s[at] === "`") {
    const end = s.indexOf("`", at + 1);
    return { text: s.slice(at + 1, end < 0 ? undefined : end), end: end < 0 ? s.length : end };
  }
  let depth = 0;
  for (let i = at + 1; i < s.length; i++) {
    if (s[i] === "(") depth++;
    else if (s[i] === ")" && --depth === 0) return { text: s.slice(at + 2, i), end: i };
  }
  return { text: s.slice(at + 2), end: s.length };
}

/** Whether a command's text (words joined by one space) matches a shell specifier. */
function textMatches(spec: string, text: string): boolean {
  const legacy = spec.endsWith(":*") ? spec.slice(0, -2).trim() : undefined;
  const pattern = legacy !== undefined ? `${legacy} *` : spec.trim();
  if (!pattern.includes("*")) {
    const want = splitWords(pattern);
    return want !== null && text === want.join(" ");
  }
  const tail = pattern.endsWith(" *");
  const body = (tail ? pattern.slice(0, -2) : pattern)
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}${tail ? "(?: .*)?" : ""}$`, "s").test(text);
}

/** How many whole words a specifier spells out before its first wildcard (all of them when it has none). */
function literalWords(spec: string): number {
  const pattern = spec.endsWith(":*") ? `${spec.slice(0, -2).trim()} *` : spec.trim();
  const star = pattern.indexOf("*");
  if (star < 0) return Infinity;
  const head = pattern.slice(0, star);
  const words = splitWords(head.trim()) ?? [];
  return /\s$/.test(head) ? words.length : Math.max(0, words.length - 1);
}

/** Where a line's commands run relative to: an earlier `cd` makes relative paths unknowable here. */
export const CHANGES_FOLDER = /^(?:cd|pushd|popd)(?:\s|$)/;

/**
 * Whether one simple command matches a shell specifier: `prefix:*` (Claude Code's older form), a
 * pattern with `*` wildcards (`npm run test *`: a trailing ` *` also covers the bare command), or an
 * exact command. For allow, the command must be plain words (no variables, globs or quotes that
 * hide operators), matched word for word; its redirections must stay in the project and out of
 * its control folders (safety/shell-redirects.ts), and an option that writes or runs
 * (safety/shell-options.ts) must be one the specifier spells out. For deny and ask its text is
 * enough, with or without its redirections, so `rm -rf $HOME` and `>/dev/null rm -rf x` still meet `rm:*`.
 */
export function shellMatches(
  spec: string,
  command: string,
  strict: boolean,
  cwd: string,
  folderChanged: boolean,
): boolean {
  const parsed = splitRedirections(command);
  if (!strict) {
    const texts = [command.replace(/\s+/g, " ").trim(), ...(parsed ? [parsed.words.join(" ")] : [])];
    return texts.some((text) => textMatches(spec, text));
  }
  if (!parsed) return false;
  if (parsed.redirections.some((r) => redirectionRisk(r, cwd, folderChanged))) return false;
  const pictured = literalWords(spec);
  if (writeOrRunOptions(parsed.words).some((at) => at >= pictured)) return false;
  return textMatches(spec, parsed.words.join(" "));
}
