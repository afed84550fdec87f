// Claude Code's custom slash commands: `.claude/commands/<name>.md` (project) and
// `~/.claude/commands/<name>.md` (user). Frontmatter `description`, `argument-hint`,
// `allowed-tools`; the body is the prompt, with `$ARGUMENTS` for the whole argument text and
// `$1`, `$2`… for its words (expanded by skill-expand.ts, which the TUI imports without yaml or
// zod). They load as skills (format "command") so one path runs them all.
import { basename } from "node:path";
import * as z from "zod";
import { parseFrontmatter } from "./frontmatter.js";
import { firstLineDescription, type Skill } from "./skill-parse.js";
import { lazily } from "./lazily.js";

const NAME = /^[A-Za-z0-9][\w.-]*$/;

const commandFrontmatter = lazily(() => {
  const toolList = z
    .union([z.string(), z.array(z.string())])
    .transform((v) =>
      (typeof v === "string" ? v.split(/,\s*|\s+(?![^(]*\))/) : v).map((t) => t.trim()).filter(Boolean),
    );
  return z.looseObject({
    description: z.string().optional(),
    "argument-hint": z.union([z.string(), z.array(z.string())]).optional(),
    "allowed-tools": toolList.optional(),
  });
});

/** Claude Code's tool names -> ours. A rule's parentheses (`Bash(git add:*)`) narrow a tool; we allow the tool. */
const CLAUDE_TOOLS: Record<string, string> = {
  Bash: "run_shell_command",
  Read: "read_file",
  Write: "create_file",
  Edit: "edit_file",
  MultiEdit: "edit_file",
  Glob: "glob_files",
  Grep: "grep_files",
  LS: "list_files",
  WebFetch: "web_fetch",
  WebSearch: "web_search",
  Task: "delegate",
  TodoWrite: "todo_write",
  BashOutput: "shell_output",
  KillShell: "kill_shell",
  KillBash: "kill_shell",
};

/** `allowed-tools` of a Claude command as our tool names; names of other tools (ours, MCP) pass as they are. */
export function mapClaudeTools(rules: string[]): string[] {
  const names = rules.map((r) => r.replace(/\(.*\)$/, "").trim()).map((n) => CLAUDE_TOOLS[n] ?? n);
  return [...new Set(names.filter((n) => /^[\w.-]+$/.test(n)))];
}

export type ParsedCommand = { ok: true; skill: Skill } | { ok: false; error: string };

export function parseClaudeCommand(text: string, source: string): ParsedCommand {
  const name = basename(source).replace(/\.md$/i, "");
  if (!NAME.test(name)) return { ok: false, error: `${source}: the file name is not a usable command name` };
  // Claude Code's docs write `argument-hint: [pr-number] [priority]`, which is not valid YAML
  // (or a list, for one bracket): the value is taken as the text it is.
  const quoted = text.replace(
    /^(argument-hint:[ \t]*)(\[.*?)[ \t]*$/m,
    (_m, key: string, value: string) => key + JSON.stringify(value),
  );
  const parsed = parseFrontmatter(quoted, source, commandFrontmatter());
  if (!parsed.ok) return parsed;
  const meta: z.infer<ReturnType<typeof commandFrontmatter>> = parsed.meta ?? {};
  const hint = meta["argument-hint"];
  const skill: Skill = {
    name,
    description: meta.description?.trim() || firstLineDescription(parsed.body),
    params: [],
    template: parsed.body,
    source,
    format: "command",
  };
  // `argument-hint: [message]` is a YAML list: shown as written, in brackets.
  if (hint !== undefined) skill.argumentHint = Array.isArray(hint) ? hint.map((h) => `[${h}]`).join(" ") : hint;
  const tools = meta["allowed-tools"] ? mapClaudeTools(meta["allowed-tools"]) : [];
  if (tools.length > 0) skill.allowedTools = tools;
  return { ok: true, skill };
}
