// Claude Code sub-agent files as people write them (docs.anthropic.com/en/docs/claude-code/sub-agents:
// `name`, `description`, `tools` "comma-separated; omit to inherit all", `model` "sonnet, opus,
// haiku or inherit"), copied from public repositories: each case names its repository, path and
// commit. Frontmatter is verbatim; long bodies are cut (the body is only the prompt).
import { describe, expect, it } from "vitest";
import { anthropicModelOf, parseAgentFile } from "../../src/context/agent-types.js";
import { subAgentConfig } from "../../src/tools/delegate.js";
import { testConfig } from "../tools/ctx.js";

const parse = (text: string, file: string) => {
  const r = parseAgentFile(text, `/p/.claude/agents/${file}`, "project");
  if (!r.ok) throw new Error(r.error);
  return r.type;
};

describe("real .claude/agents files", () => {
  it("comma list, model: sonnet (21st-dev/1code .claude/agents/code-reviewer.md @ e9c73b0)", () => {
    const t = parse(
      `---
name: code-reviewer
description: Reviews code changes for correctness, regressions, integration risk, and missing verification.
tools: Read, Glob, Grep, Bash
model: sonnet
---

You are a focused code reviewer for the 1Code desktop app.
`,
      "code-reviewer.md",
    );
    expect(t.name).toBe("code-reviewer");
    expect(t.tools).toEqual(["read_file", "list_files", "glob_files", "grep_files", "run_shell_command"]);
    expect(t.model).toBe("sonnet");
    expect(t.systemPrompt).toBe("You are a focused code reviewer for the 1Code desktop app.");
  });

  it("model: opus with keys agent0 does not use (0xMiden/protocol .claude/agents/code-reviewer.md @ 138594d)", () => {
    const t = parse(
      `---
name: code-reviewer
description: Staff engineer code reviewer evaluating changes across correctness, readability, architecture, API design, and performance. Spawned automatically after each commit and before PR creation.
model: opus
effort: max
tools: Read, Grep, Glob, Bash
maxTurns: 15
---

# Staff Engineer Code Reviewer
`,
      "code-reviewer.md",
    );
    expect(t.model).toBe("opus");
    expect(t.tools).toContain("run_shell_command");
  });

  it('the /agents generator\'s one-line description with "Context: …", model: inherit, color, a comment and a YAML tool list with Bash(*) (1215-Labs/claude-code-templates .claude/agents/code-reviewer.md @ 477f663)', () => {
    const t = parse(
      `---
name: code-reviewer
description: Use this agent when you need to review recently written or modified code for quality, security, and maintainability. This agent should be invoked immediately after code changes are made to ensure high standards are maintained. Examples:\\n\\n<example>\\nContext: The user has created a code-review agent that should be called after writing code.\\nuser: "Please write a function that validates email addresses"\\nassistant: "I'll create an email validation function for you:"\\n<function implementation>\\nassistant: "Now let me use the code-reviewer agent to review this code for quality and security"\\n<commentary>\\nSince new code was just written, the code-reviewer agent should be invoked to ensure it meets quality standards.\\n</commentary>\\n</example>
model: inherit
# Model rationale: Inherits parent model; code review benefits from same reasoning level as implementation
color: red
tools:
  - Read
  - Glob
  - Grep
  - Bash(*)
category: quality
related:
  agents: [test-automator, type-checker, codebase-analyst]
  commands: [/code-review, /ui-review]
  skills: [lsp-type-safety-check]
  workflows: [code-quality, feature-development]
---

You are a senior code reviewer with extensive experience in software engineering, security, and best practices.
`,
      "code-reviewer.md",
    );
    expect(t.description).toMatch(/^Use this agent when you need to review recently written/);
    expect(t.description).toContain('user: "Please write a function that validates email addresses"');
    expect(t.model).toBeUndefined(); // inherit: the session's model
    expect(t.tools).toEqual(["read_file", "list_files", "glob_files", "grep_files", "run_shell_command"]);
  });

  it("a name that is not one word, a claude-… model id, a JSON list of lower-case tools (rem0930/market-analyzer .claude/agents/reviewer.md)", () => {
    const t = parse(
      `---
name: "Code Reviewer 👀"
description: "MUST BE USED for PR reviews, code reviews, or quality checks. Specializes in Staff-level review with DocDD, NFR, and rollback perspectives."
model: "claude-3-5-sonnet-20241022"
tools: ["read", "write", "grep", "glob"]
---

{{file:prompts/agents/reviewer.md}}
`,
      "reviewer.md",
    );
    expect(t.name).toBe("reviewer");
    expect(t.tools).toEqual(["read_file", "list_files", "glob_files", "grep_files", "write_file", "create_file"]);
    expect(anthropicModelOf(t.model!)).toBe("claude-3-5-sonnet-20241022");
  });

  it("no tools: every tool of the run (khanelinix/khanelinix modules/home/programs/terminal/tools/claude-code/agents/general/code-reviewer.nix, written to ~/.claude/agents)", () => {
    const t = parse(
      `---
name: code-reviewer
description: Specialized code review agent for development tasks
---

You are a senior software engineer specializing in code reviews.
`,
      "code-reviewer.md",
    );
    expect(t.tools).toBeUndefined();
    expect(t.model).toBeUndefined();
  });
});

describe("Claude Code's model names on agent0", () => {
  const parent = { ...testConfig("/p"), provider: "ollama" as const, model: "qwen3:8b" };
  const type = (model?: string) => ({
    name: "r",
    description: "d",
    systemPrompt: "p",
    source: "/p/.claude/agents/r.md",
    scope: "project" as const,
    ...(model ? { model } : {}),
  });
  it("inherit (no model) and Claude's names keep a local session's model; on Anthropic they name its models", () => {
    const now = new Date(0);
    expect(subAgentConfig(parent, type(), now)).toMatchObject({ provider: "ollama", model: "qwen3:8b" });
    expect(subAgentConfig(parent, type("sonnet"), now)).toMatchObject({ provider: "ollama", model: "qwen3:8b" });
    expect(subAgentConfig(parent, type("claude-3-5-sonnet-20241022"), now)).toMatchObject({
      provider: "ollama",
      model: "qwen3:8b",
    });
    const onAnthropic = { ...parent, provider: "anthropic" as const, model: "claude-sonnet-4-5" };
    expect(subAgentConfig(onAnthropic, type("haiku"), now).model).toBe("claude-haiku-4-5");
    expect(subAgentConfig(onAnthropic, type("claude-3-5-sonnet-20241022"), now).model).toBe(
      "claude-3-5-sonnet-20241022",
    );
  });
});
