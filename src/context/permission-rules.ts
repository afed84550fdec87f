// Permission rules that last, in Claude Code's syntax (docs.anthropic.com/en/docs/claude-code/iam,
// "Permission rules"), so a user's settings carry over unchanged: `Tool` or `Tool(specifier)`.
//   run_shell_command(npm test:*)   a prefix rule; run_shell_command(git status) an exact one
//   edit_file(src/**)               a path rule (gitignore-style, relative to the project)
//   web_fetch(domain:example.com)   a host rule
//   mcp__server / mcp__server__tool an MCP server's tools, or one of them
// Claude Code's tool names (Bash, Read, Edit, Write, MultiEdit, Glob, Grep, LS, WebFetch, WebSearch,
// Task, TodoWrite) are aliases. deny beats ask beats allow. Both threads use this: the worker
// decides with it, the UI lists the rules (/permissions) and writes new ones.
import os from "node:os";
import path from "node:path";
import { splitRedirections } from "../safety/shell-redirects.js";
import { CHANGES_FOLDER, shellMatches, simpleCommands } from "./shell-rule-match.js";
export { simpleCommands } from "./shell-rule-match.js";

import type { PermissionRule, RuleKind } from "../protocol/permission-rule.js";
export type { PermissionRule, RuleKind } from "../protocol/permission-rule.js";

/** Strongest first: the order rules are tried in. */
export const RULE_KINDS: readonly RuleKind[] = ["deny", "ask", "allow"];

/** Claude Code's tool names, and the agent0 tools each stands for. */
export const CLAUDE_TOOL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  Bash: ["run_shell_command"],
  Read: ["read_file", "list_files", "glob_files", "grep_files"],
  Edit: ["edit_file", "multi_edit", "write_file", "create_file", "apply_patch"],
  Write: ["write_file", "create_file"],
  MultiEdit: ["multi_edit"],
  Glob: ["glob_files"],
  Grep: ["grep_files"],
  LS: ["list_files"],
  WebFetch: ["web_fetch"],
  WebSearch: ["web_search"],
  Task: ["delegate"],
  TodoWrite: ["todo_write"],
};

const SHELL = "run_shell_command";
const PATH_TOOLS: ReadonlySet<string> = new Set([...CLAUDE_TOOL_ALIASES.Read!, ...CLAUDE_TOOL_ALIASES.Edit!]);

export interface ParsedRule {
  /** agent0 tool names, or a name ending in `*` for an MCP prefix. */
  tools: string[];
  specifier?: string;
}

/** `Tool(spec)` or `Tool`; undefined when it is not a rule. */
export function parseRule(text: string): ParsedRule | undefined {
  const m = /^\s*([A-Za-z0-9_*-]+)\s*(?:\((.*)\))?\s*$/s.exec(text);
  if (!m) return undefined;
  const name = m[1]!;
  const specifier = m[2]?.trim();
  let tools: string[];
  if (CLAUDE_TOOL_ALIASES[name]) tools = [...CLAUDE_TOOL_ALIASES[name]];
  else if (/^mcp__[^_].*?(__\*)?$/.test(name) && !name.slice(5).includes("__")) tools = [`${name}__*`];
  else if (name.endsWith("__*")) tools = [name];
  else tools = [name];
  return specifier === undefined || specifier === "" || specifier === "*" ? { tools } : { tools, specifier };
}

function toolMatches(pattern: string, tool: string): boolean {
  return pattern.endsWith("*") ? tool.startsWith(pattern.slice(0, -1)) : pattern === tool;
}

/** A gitignore-style glob as a regular expression: `**` any depth, `*` within a name. */
function globRegex(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      re += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/**
 * Claude Code's path forms: `//abs`, `~/home`, `/from-the-project-root`, `rel` (a pattern without a
 * slash matches a name at any depth, as in .gitignore). A folder pattern covers what is inside.
 */
export function pathMatches(spec: string, file: string, cwd: string): boolean {
  const abs = path.resolve(cwd, file);
  let pattern: string;
  if (spec.startsWith("//")) pattern = spec.slice(1);
  else if (spec.startsWith("~/")) pattern = path.join(os.homedir(), spec.slice(2));
  else if (spec.startsWith("/")) pattern = path.join(cwd, spec);
  else if (spec.startsWith("./")) pattern = path.join(cwd, spec.slice(2));
  else if (!spec.includes("/")) pattern = path.join(cwd, "**", spec);
  else pattern = path.join(cwd, spec);
  const re = globRegex(pattern.split(path.sep).join("/"));
  const target = abs.split(path.sep).join("/");
  return re.test(target) || globRegex(`${pattern.split(path.sep).join("/")}/**`).test(target);
}

/** The host of a URL, lower case and without its port. */
function hostOf(url: unknown): string | undefined {
  try {
    return new URL(String(url)).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** What a call is about, for matching: its command, the paths it names, its URL. */
export interface RuleTarget {
  tool: string;
  args: Record<string, unknown>;
  cwd: string;
  /** The files an edit names (apply_patch lists several); default: args.path. */
  paths?: string[];
  /** A part of a compound shell line whose other parts change folder (`cd x && …`): set by decide. */
  folderChanged?: boolean;
}

/**
 * Whether the rule covers the call. A shell rule must cover every simple command of a compound one
 * to allow it (`npm test:*` never allows `npm test && curl …`); one is enough to deny or ask.
 */
export function ruleMatches(rule: ParsedRule, kind: RuleKind, t: RuleTarget): boolean {
  if (!rule.tools.some((p) => toolMatches(p, t.tool))) return false;
  const spec = rule.specifier;
  if (spec === undefined) return true;
  if (t.tool === SHELL) {
    const command = typeof t.args.command === "string" ? t.args.command : "";
    // An exact rule for the whole line (what "this exact command" keeps) covers that line as written.
    if (!spec.endsWith(":*") && command.trim() === spec.trim()) return true;
    const parts = simpleCommands(command);
    if (parts.length === 0) return false;
    const moved = t.folderChanged === true || parts.some((p) => CHANGES_FOLDER.test(p));
    return kind === "allow"
      ? parts.every((p) => shellMatches(spec, p, true, t.cwd, moved))
      : parts.some((p) => shellMatches(spec, p, false, t.cwd, moved));
  }
  if (t.tool === "web_fetch" && spec.startsWith("domain:")) {
    const host = hostOf(t.args.url);
    const want = spec.slice("domain:".length).toLowerCase();
    if (!host) return false;
    return want.startsWith("*.") ? host.endsWith(want.slice(1)) : host === want;
  }
  if (PATH_TOOLS.has(t.tool)) {
    const paths = t.paths ?? [typeof t.args.path === "string" ? t.args.path : "."];
    if (paths.length === 0) return false;
    return kind === "allow"
      ? paths.every((p) => pathMatches(spec, p, t.cwd))
      : paths.some((p) => pathMatches(spec, p, t.cwd));
  }
  return false;
}

/**
 * The strongest rule that covers the call: deny before ask before allow. A compound shell command
 * is allowed when each of its simple commands has an allow rule (not necessarily the same one).
 */
export function decide(rules: readonly PermissionRule[], t: RuleTarget): PermissionRule | undefined {
  const parsed = rules.flatMap((r) => {
    const p = parseRule(r.rule);
    return p ? [{ r, p }] : [];
  });
  for (const kind of RULE_KINDS) {
    const ofKind = parsed.filter((x) => x.r.kind === kind);
    const one = ofKind.find((x) => ruleMatches(x.p, kind, t));
    if (one) return one.r;
    if (kind === "allow" && t.tool === SHELL && ofKind.length > 0) {
      const parts = simpleCommands(typeof t.args.command === "string" ? t.args.command : "");
      const folderChanged = parts.some((p) => CHANGES_FOLDER.test(p));
      const one = (part: string) => ({ ...t, args: { command: part }, folderChanged });
      const used = parts.map((part) => ofKind.find((x) => ruleMatches(x.p, kind, one(part))));
      if (parts.length > 0 && used.every(Boolean)) return used[0]!.r;
    }
  }
  return undefined;
}

/**
 * `--allowedTools "Bash(npm test:*) Read"` and `"Bash(git log:*),Edit"`: rules separated by commas or
 * spaces outside their parentheses (Claude Code's flags take both).
 */
export function splitRuleList(text: string): string[] {
  const out: string[] = [];
  let current = "";
  let depth = 0;
  for (const c of text) {
    if (c === "(") depth++;
    if (c === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === "," || /\s/.test(c))) {
      if (current) out.push(current);
      current = "";
    } else current += c;
  }
  if (current) out.push(current);
  return out;
}

/** The rule "always" writes for a shell command's prefix: its first word, two for a runner (`npm test`). */
export function prefixRuleFor(command: string): string | undefined {
  // `npm test > test.log 2>&1` offers `npm test:*`: the rule lets such redirections through.
  const words = splitRedirections(simpleCommands(command)[0] ?? "")?.words;
  if (!words || words.length === 0 || simpleCommands(command).length !== 1) return undefined;
  const runners = new Set([
    "npm",
    "npx",
    "pnpm",
    "yarn",
    "git",
    "cargo",
    "go",
    "make",
    "docker",
    "uv",
    "pip",
    "python",
    "node",
  ]);
  const n = runners.has(words[0]!) && words[1] && !words[1].startsWith("-") ? 2 : 1;
  return `${SHELL}(${words.slice(0, n).join(" ")}:*)`;
}
