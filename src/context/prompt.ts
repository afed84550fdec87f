import type { ToolProtocol } from "../protocol/run-config.js";
import { formatGitFacts, type GitFacts } from "./git-format.js";
import { agentInstructions, leanInstructions } from "./instructions.js";
import type { ContextFile } from "./project.js";

// The I/O half lives in load.ts; re-exported here for callers that take both from one place.
export { loadContext, type LoadedContext } from "./load.js";
import type { SkillSummary } from "./skill-parse.js";

export interface PromptInput {
  cwd: string;
  /** `--add-dir` folders: the tools may use them as they use the project. */
  addDirs?: readonly string[];
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
  /** agent0's own instructions (and memory, skills), or what the project says about itself. */
  kind: "system" | "project";
}

export interface SystemPrompt {
  text: string;
  parts: PromptPart[];
  /** The prompt of a small window (protocol/window.ts): lean instructions, no memory index or skills list. */
  lean: { text: string; parts: PromptPart[] };
}

/** A rough token count: about four characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The system prompt and what it is made of. Pure: all I/O happens in loadContext (load.ts). */
export function buildSystemPrompt(input: PromptInput): SystemPrompt {
  type Section = { name: string; source: string; text: string; kind: PromptPart["kind"]; lean?: string };
  const sections: Section[] = [];
  const add = (name: string, source: string, text: string, kind: PromptPart["kind"] = "system", lean?: string) =>
    sections.push({ name, source, text, kind, ...(lean !== undefined ? { lean } : {}) });

  add(
    "instructions",
    "built-in",
    agentInstructions(input.toolProtocol),
    "system",
    leanInstructions(input.toolProtocol),
  );
  const added = input.addDirs?.length
    ? `\nAdded folders (the tools may use them too; give their files by absolute path): ${input.addDirs.join(", ")}`
    : "";
  const environment = `# Environment\nDate: ${input.date}\nPlatform: ${input.platform}\nWorking folder: ${input.cwd}${added}`;
  add("environment", "built-in", environment, "system", environment);
  if (input.git) {
    const git = `# Git\n${formatGitFacts(input.git)}`;
    add("git", input.git.root, git, "project", git);
  }
  for (const file of input.files) {
    const text = `# Instructions from ${file.label}\nThe project's own instructions (${file.path}); follow them.\n\n${file.content}`;
    add(file.label, file.path, text, "project", text);
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
  const lean = sections.filter((s) => s.lean !== undefined);
  return {
    text: sections.map((s) => s.text).join("\n\n"),
    parts: sections.map((s) => ({ name: s.name, source: s.source, tokens: estimateTokens(s.text), kind: s.kind })),
    lean: {
      text: lean.map((s) => s.lean).join("\n\n"),
      parts: lean.map((s) => ({ name: s.name, source: s.source, tokens: estimateTokens(s.lean!), kind: s.kind })),
    },
  };
}
