// Sub-agent types for the delegate tool: three built in, more from markdown files with YAML
// frontmatter (name, description, tools, model; the body is the system prompt) in
// `~/.claude/agents/` and `$XDG_CONFIG_HOME/agent0/agents/` (user), then `<project>/.claude/agents/`
// and `<project>/.agent0/agents/` (project wins). Claude Code's files work unchanged
// (docs.anthropic.com/en/docs/claude-code/sub-agents): its tool names map to agent0's, and its
// model aliases (sonnet, opus, haiku, inherit) and `claude-…` ids keep the parent's model unless it
// runs on Anthropic. Keys agent0 has no use for (color, effort, maxTurns …) are left alone.
import fs from "node:fs";
import os from "node:os";
import { basename, join } from "node:path";
import { CLAUDE_TOOL_ALIASES } from "./permission-rules.js";
import { parseFrontmatter } from "./frontmatter.js";
import * as z from "zod";
import { lazily } from "./lazily.js";

export interface AgentType {
  name: string;
  description: string;
  /** The tools it may use; undefined = every tool of the run. */
  tools?: string[];
  /** A model of its own (a `provider/` prefix switches provider); undefined = the parent's. */
  model?: string;
  systemPrompt: string;
  /** "built-in" or the file it came from. */
  source: string;
  /** A project's file is the repository's word, not the user's: it may not move the work to a hosted model unasked. */
  scope: "built-in" | "user" | "project";
}

export const EXPLORE_TOOLS = ["read_file", "list_files", "glob_files", "grep_files", "memory_search", "memory_list"];
export const RESEARCH_TOOLS = ["web_search", "web_fetch"];

const REPORT =
  "Your final answer goes back to the agent that gave you the task, not to the user: make it complete " +
  "and self-contained, since that agent sees nothing else of your work.";

export const BUILTIN_AGENT_TYPES: readonly AgentType[] = [
  {
    name: "general",
    description: "Any self-contained task, with every tool (it may change files and run commands).",
    systemPrompt:
      "You are a sub-agent of a coding assistant. Do the task you are given, completely, using your tools. " +
      `Then answer with what you did and what you found. ${REPORT}`,
    source: "built-in",
    scope: "built-in",
  },
  {
    name: "explore",
    description: "Find and read code or files to answer a question; read-only.",
    tools: EXPLORE_TOOLS,
    systemPrompt:
      "You are a read-only exploration sub-agent. Find and read the files that answer the question you are given: " +
      "search with grep_files and glob_files, look around with list_files, read with read_file. You cannot change " +
      "anything. Answer with your findings, naming the file paths (and line numbers) each one comes from. " +
      REPORT,
    source: "built-in",
    scope: "built-in",
  },
  {
    name: "research",
    description: "Search the web and read pages to answer a question; cites URLs.",
    tools: RESEARCH_TOOLS,
    systemPrompt:
      "You are a web research sub-agent. Search with web_search (a few good queries, not many), read the most " +
      "promising pages with web_fetch, and answer the question from what they say. Cite the URL of every fact; " +
      `say plainly what you could not find. ${REPORT}`,
    source: "built-in",
    scope: "built-in",
  },
];

const NAME = /^[A-Za-z0-9][\w.-]*$/;

const frontmatter = lazily(() => {
  // "Read, Grep", "Read Grep" or a YAML list; a rule's specifier stays with its tool ("Bash(git log:*)").
  const toolList = z
    .union([z.string(), z.array(z.string())])
    .transform((v) =>
      (typeof v === "string" ? (v.match(/[^\s,()]+(?:\([^)]*\))?/g) ?? []) : v).map((t) => t.trim()).filter(Boolean),
    );
  return z.looseObject({
    name: z.string().optional(),
    description: z.string().optional(),
    tools: toolList.optional(),
    model: z.string().min(1).optional(),
  });
});

export type ParsedAgentType = { ok: true; type: AgentType } | { ok: false; error: string };

/** One agent file. The name defaults to the file's name; the body must hold the prompt. */
export function parseAgentFile(text: string, source: string, scope: AgentType["scope"] = "user"): ParsedAgentType {
  if (!text.startsWith("---"))
    return { ok: false, error: `${source}: malformed agent file: no frontmatter (start the file with ---)` };
  const parsed = parseFrontmatter(text, source, frontmatter());
  if (!parsed.ok)
    return {
      ok: false,
      error: parsed.error.replace(": malformed frontmatter: no closing", ": malformed agent file: no closing"),
    };
  const meta = parsed.meta ?? {};
  // A name that is no one word ("Code Reviewer") cannot be called: the file's name stands in.
  const name = meta.name && NAME.test(meta.name) ? meta.name : basename(source).replace(/\.md$/, "");
  if (!NAME.test(name)) return { ok: false, error: `${source}: no usable name: set "name:" in the frontmatter` };
  const body = parsed.body;
  if (!body)
    return {
      ok: false,
      error: `${source}: the body is empty: write the sub-agent's system prompt below the frontmatter`,
    };
  const type: AgentType = {
    name,
    description: meta.description?.trim() || `Custom agent from ${basename(source)}`,
    systemPrompt: body,
    source,
    scope,
  };
  if (meta.tools) type.tools = agent0Tools(meta.tools);
  if (meta.model && meta.model !== "inherit") type.model = meta.model;
  return { ok: true, type };
}

/**
 * Claude Code's tool names (Read, Grep, Bash …, in any case) as agent0's; other names (agent0's,
 * mcp__…) stay. A rule's specifier (`Bash(*)`, `Bash(git:*)`) gives the whole tool: its own
 * approval still asks for each call as the mode says.
 */
function agent0Tools(names: string[]): string[] {
  return [
    ...new Set(
      names.flatMap((n) => {
        const bare = n.replace(/\(.*\)$/s, "").trim();
        const alias = Object.keys(CLAUDE_TOOL_ALIASES).find((k) => k.toLowerCase() === bare.toLowerCase());
        return alias ? CLAUDE_TOOL_ALIASES[alias]! : [bare];
      }),
    ),
  ];
}

/** Claude Code's model aliases: on Anthropic they name its models; elsewhere they keep the parent's. */
export const CLAUDE_MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: "claude-sonnet-4-5",
  opus: "claude-opus-4-1",
  haiku: "claude-haiku-4-5",
};

/** The Anthropic model an agent file's `model` names (an alias or a `claude-…` id); undefined for others. */
export function anthropicModelOf(model: string): string | undefined {
  return CLAUDE_MODEL_ALIASES[model] ?? (/^claude-[\w.-]+$/.test(model) ? model : undefined);
}

function fromDir(dir: string, scope: AgentType["scope"], warnings: string[]): AgentType[] {
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => n.endsWith(".md"))
      .sort();
  } catch {
    return []; // no such folder: nothing defined there
  }
  const out: AgentType[] = [];
  for (const n of names) {
    const file = join(dir, n);
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (err) {
      warnings.push(`${file}: cannot read: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    const parsed = parseAgentFile(text, file, scope);
    if (parsed.ok) out.push(parsed.type);
    else warnings.push(parsed.error);
  }
  return out;
}

export interface LoadedAgentTypes {
  types: AgentType[];
  warnings: string[];
}

/**
 * Built-in < user (`~/.claude/agents`, `<configDir>/agents`) < project (`<cwd>/.claude/agents`,
 * `<cwd>/.agent0/agents`), by name.
 */
export function loadAgentTypes(dirs: { cwd: string; configDir: string; home?: string }): LoadedAgentTypes {
  const warnings: string[] = [];
  const byName = new Map<string, AgentType>();
  const home = dirs.home ?? os.homedir();
  const layers = [
    BUILTIN_AGENT_TYPES,
    fromDir(join(home, ".claude", "agents"), "user", warnings),
    fromDir(join(dirs.configDir, "agents"), "user", warnings),
    fromDir(join(dirs.cwd, ".claude", "agents"), "project", warnings),
    fromDir(join(dirs.cwd, ".agent0", "agents"), "project", warnings),
  ];
  for (const type of layers.flat()) byName.set(type.name, type);
  return { types: [...byName.values()], warnings };
}
