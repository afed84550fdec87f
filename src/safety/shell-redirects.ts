// A simple command's redirections, read apart from its words, and which of them a permission
// rule may let through: a file inside the project (not a folder that configures programs), a
// device that is a descriptor, or a descriptor duplicated (`2>&1`). Claude Code's rules match
// `python script.py > output.txt` under `Bash(python:*)` (its 1.0.123 changelog); agent0 keeps the
// write inside the project (context/permission-rules.ts).
import path from "node:path";
import { isInside, realpathLoose } from "./paths.js";
import { protectedPathReason } from "./protected-paths.js";
import { splitWords } from "./shell-words.js";

export interface Redirection {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`, `>&`, `<&` or `<<<`. */
  op: string;
  target: string;
  /** file: a path opened; fd: a descriptor duplicated or closed; data: a here-string's word. */
  kind: "file" | "fd" | "data";
}

const OPERATOR = /^(?:&>>|&>|>>|>\||>&|>|<<<|<<|<>|<&|<)/;
/** Devices that are the process's own descriptors, or nothing. */
const DEVICES: ReadonlySet<string> = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"]);

/** The word starting at `at` (quotes kept), and where it ends. */
function wordAt(command: string, at: number): { raw: string; end: number } {
  let quote: string | null = null;
  let j = at;
  for (; j < command.length; j++) {
    const d = command[j]!;
    if (quote) {
      if (d === quote) quote = null;
    } else if (d === "'" || d === '"') quote = d;
    else if (d === " " || d === "\t" || d === ">" || d === "<") break;
  }
  return { raw: command.slice(at, j), end: j };
}

/**
 * The words of a simple command and its redirections, or null when either is more than plain
 * words (a heredoc, a target the shell would expand). Quotes are respected.
 */
export function splitRedirections(command: string): { words: string[]; redirections: Redirection[] } | null {
  let rest = "";
  const redirections: Redirection[] = [];
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote || c === "'" || c === '"') {
      if (quote === c) quote = null;
      else if (!quote) quote = c;
      rest += c;
      continue;
    }
    if (c !== ">" && c !== "<" && !(c === "&" && command[i + 1] === ">")) {
      rest += c;
      continue;
    }
    // A descriptor's number belongs to the redirection when it starts a word (`2>x`, not `a2>x`).
    const fd = /(?:^|[ \t])(\d+)$/.exec(rest);
    if (fd) rest = rest.slice(0, rest.length - fd[1]!.length);
    const op = OPERATOR.exec(command.slice(i))![0];
    if (op === "<<") return null;
    let at = i + op.length;
    while (command[at] === " " || command[at] === "\t") at++;
    const { raw, end } = wordAt(command, at);
    i = end - 1;
    rest += " ";
    if ((op === ">&" || op === "<&") && /^(?:\d+|-)$/.test(raw)) {
      redirections.push({ op, target: raw, kind: "fd" });
      continue;
    }
    const target = splitWords(raw);
    if (!target || target.length !== 1) return null;
    // `>&word` with a word that is no descriptor is `&>word`.
    redirections.push({ op: op === ">&" ? "&>" : op, target: target[0]!, kind: op === "<<<" ? "data" : "file" });
  }
  if (quote) return null;
  const words = splitWords(rest);
  return words ? { words, redirections } : null;
}

/**
 * Why a redirection keeps a permission rule from allowing its command, or undefined when it
 * may pass: out of the project (links followed), into a protected path, or relative to a folder
 * an earlier `cd` of the same line made current.
 */
export function redirectionRisk(r: Redirection, cwd: string, folderChanged: boolean): string | undefined {
  if (r.kind !== "file" || DEVICES.has(r.target)) return undefined;
  if (folderChanged && !path.isAbsolute(r.target)) return `${r.target} is relative to a folder the line changes to`;
  const root = realpathLoose(path.resolve(cwd));
  const real = realpathLoose(path.resolve(cwd, r.target));
  if (!isInside(root, real)) return `${r.target} is outside the project`;
  return r.op === "<" ? undefined : protectedPathReason(real, root);
}
