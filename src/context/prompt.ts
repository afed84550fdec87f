import type { ToolProtocol } from "../protocol/run-config.js";
import { formatGitFacts, type GitFacts } from "./git-format.js";
import { agentInstructions } from "./instructions.js";
import type { ContextFile } from "./project.js";

// The I/O half lives in load.ts; re-exported here for callers that take both from one place.
export { loadContext, type LoadedContext } from "./load.js";
import type { SkillSummary } from "./skill-parse.js";

export interface PromptInput {
  cwd: string;
  /** e.g. "2026-03-14" — passed in so the builder stays pure. */
  date: string;
  /** e.g. "linux". */
  platform: string;
  files: ContextFile[];
  git?: GitFacts;
  memoryIndex?: string;
  skills?: SkillSummary[];
  toolProtocol?: ToolProtocol;
}

/** One section of the system prompt, for /context. */
export interface PromptPart {
  name: string;
  source: string;
  tokens: number;
}

export interface SystemPrompt {
  text: string;
  parts: PromptPart[];
}

/** A rough token count: about four characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The system prompt and what it is made of. Pure: all I/O happens in loadContext (load.ts). */
export function buildSystemPrompt(input: PromptInput): SystemPrompt {
  const sections: { name: string; source: string; text: string }[] = [];
  const add = (name: string, source: string, text: string) => sections.push({ name, source, text });

  add("instructions", "built-in", agentInstructions(input.toolProtocol));
  add(
    "environment",
    "built-in",
    `# Environment\nDate: ${input.date}\nPlatform: ${input.platform}\nWorking folder: ${input.cwd}`,
  );
  if (input.git) add("git", input.git.root, `# Git\n${formatGitFacts(input.git)}`);
  for (const file of input.files) {
    add(
      file.label,
      file.path,
      `# Instructions from ${file.label}\nThe project's own instructions (${file.path}); follow them.\n\n${file.content}`,
    );
  }
  if (input.memoryIndex && input.memoryIndex.trim().length > 0) {
    add(
      "memory index",
      "MEMORY.md indexes",
      `# Memory\nNotes saved in earlier sessions. Use memory_search to read one in full, memory_save to keep something worth remembering across sessions, memory_delete when one is wrong.\n\n${input.memoryIndex.trim()}`,
    );
  }
  if (input.skills && input.skills.length > 0) {
    const lines = input.skills.map((s) => {
      const use = [`/${s.name}`, ...s.params.map((p) => `<${p}>`)].join(" ");
      return s.description ? `- ${use} — ${s.description}` : `- ${use}`;
    });
    add(
      "skills",
      `${input.skills.length} skills`,
      `# Skills\nReusable instructions. When one fits the task, load it with the skills tool (action "load") and follow it.\n\n${lines.join("\n")}`,
    );
  }
  return {
    text: sections.map((s) => s.text).join("\n\n"),
    parts: sections.map((s) => ({ name: s.name, source: s.source, tokens: estimateTokens(s.text) })),
  };
}

/** The /context report: each part, where it came from, its token estimate, and the total. */
/**
 * What fills the context window, part by part, and what is left: `/context`'s first table.
 * Figures are estimates (characters / 4) until the server counts the next request.
 */
export function formatBudget(window: number, parts: readonly [string, number][]): string {
  const used = parts.reduce((sum, [, n]) => sum + n, 0);
  const rows: [string, string][] = parts.map(([name, n]) => [name, `~${n}`]);
  if (window > 0) rows.push(["free", `~${Math.max(0, window - used)}`]);
  const nameWidth = Math.max(...rows.map(([n]) => n.length));
  const numWidth = Math.max(...rows.map(([, n]) => n.length));
  const pct = (n: string) => (window > 0 ? `  ${Math.round((Number(n.slice(1)) / window) * 100)}%` : "");
  const head = window > 0 ? `Context window: ${window} tokens` : "Context window: not known yet (no request so far)";
  return [head, ...rows.map(([name, n]) => `  ${name.padEnd(nameWidth)}  ${n.padStart(numWidth)}${pct(n)}`)].join("\n");
}

export function formatContextReport(parts: readonly PromptPart[]): string {
  const nameWidth = Math.max(4, ...parts.map((p) => p.name.length));
  const tokWidth = Math.max(6, ...parts.map((p) => `~${p.tokens}`.length));
  const total = parts.reduce((sum, p) => sum + p.tokens, 0);
  const rows = parts.map((p) => `  ${p.name.padEnd(nameWidth)}  ${`~${p.tokens}`.padStart(tokWidth)}  ${p.source}`);
  return [
    "System prompt:",
    `  ${"part".padEnd(nameWidth)}  ${"tokens".padStart(tokWidth)}  source`,
    ...rows,
    `  ${"total".padEnd(nameWidth)}  ${`~${total}`.padStart(tokWidth)}`,
  ].join("\n");
}
