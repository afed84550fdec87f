import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_AGENT_TYPES, loadAgentTypes, parseAgentFile } from "../../src/context/agent-types.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-agents-"));
  dirs.push(d);
  return d;
}

function write(dir: string, rel: string, text: string): string {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

describe("loadAgentTypes", () => {
  it("has the three built-in types when no files define more", () => {
    const { types, warnings } = loadAgentTypes({ cwd: tempDir(), configDir: tempDir() });
    expect(types.map((t) => [t.name, t.tools])).toEqual([
      ["general", undefined],
      ["explore", ["read_file", "list_files", "glob_files", "grep_files", "memory_search", "memory_list"]],
      ["research", ["web_search", "web_fetch"]],
    ]);
    expect(warnings).toEqual([]);
    expect(types).toEqual(BUILTIN_AGENT_TYPES);
  });

  it("adds a user type, lets the project's file of the same name win, and reports a malformed file", () => {
    const cwd = tempDir();
    const configDir = tempDir();
    write(
      configDir,
      "agents/reviewer.md",
      "---\nname: reviewer\ndescription: user reviewer\ntools: read_file, grep_files\n---\nReview as the user likes.\n",
    );
    write(
      configDir,
      "agents/tester.md",
      "---\ndescription: runs tests\ntools: [run_shell_command, read_file]\nmodel: qwen3:8b\n---\nRun the tests.\n",
    );
    write(
      cwd,
      ".agent0/agents/reviewer.md",
      "---\nname: reviewer\ndescription: project reviewer\ntools: [read_file]\n---\nReview as this project wants.\n",
    );
    const broken = write(cwd, ".agent0/agents/broken.md", "---\nname: [unclosed\n---\nbody\n");
    write(cwd, ".agent0/agents/notes.txt", "not an agent file");

    const { types, warnings } = loadAgentTypes({ cwd, configDir });
    expect(types.map((t) => t.name)).toEqual(["general", "explore", "research", "reviewer", "tester"]);
    const reviewer = types.find((t) => t.name === "reviewer")!;
    expect(reviewer).toEqual({
      name: "reviewer",
      description: "project reviewer",
      tools: ["read_file"],
      systemPrompt: "Review as this project wants.",
      source: path.join(cwd, ".agent0/agents/reviewer.md"),
      scope: "project",
    });
    expect(types.find((t) => t.name === "tester")).toMatchObject({
      description: "runs tests",
      tools: ["run_shell_command", "read_file"],
      model: "qwen3:8b",
      systemPrompt: "Run the tests.",
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: malformed frontmatter: `),
    );
  });

  it("lets a file redefine a built-in type", () => {
    const cwd = tempDir();
    write(cwd, ".agent0/agents/explore.md", "---\ntools: read_file\n---\nOnly read.\n");
    const explore = loadAgentTypes({ cwd, configDir: tempDir() }).types.find((t) => t.name === "explore")!;
    expect(explore.tools).toEqual(["read_file"]);
    expect(explore.systemPrompt).toBe("Only read.");
  });
});

describe("parseAgentFile", () => {
  it("names the type after its file when the frontmatter does not", () => {
    const parsed = parseAgentFile("---\ndescription: d\n---\nPrompt.", "/x/docs-writer.md");
    expect(parsed).toEqual({
      ok: true,
      type: {
        name: "docs-writer",
        description: "d",
        systemPrompt: "Prompt.",
        source: "/x/docs-writer.md",
        scope: "user",
      },
    });
  });

  it("refuses files without frontmatter, with a bad field, or without a prompt", () => {
    expect(parseAgentFile("Just text", "/a.md")).toEqual({
      ok: false,
      error: "/a.md: malformed agent file: no frontmatter (start the file with ---)",
    });
    expect(parseAgentFile("---\nname: a\nbody", "/a.md")).toEqual({
      ok: false,
      error: '/a.md: malformed agent file: no closing "---" line',
    });
    expect(parseAgentFile("---\ntools: 3\n---\nP", "/a.md")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^\/a\.md: malformed frontmatter: tools: /),
    });
    expect(parseAgentFile("---\nname: a\n---\n\n", "/a.md")).toEqual({
      ok: false,
      error: "/a.md: the body is empty: write the sub-agent's system prompt below the frontmatter",
    });
  });
});

describe("Claude Code's agent files", () => {
  // docs.anthropic.com/en/docs/claude-code/sub-agents, "File format" and "Model selection":
  // `tools` in Claude Code's names, comma-separated; `model` an alias or "inherit".
  it("reads ~/.claude/agents and .claude/agents, Claude's tool names as agent0's, inherit as the parent's model", () => {
    const cwd = tempDir();
    const home = tempDir();
    write(home, ".claude/agents/mine.md", "---\nname: mine\ndescription: d\nmodel: inherit\n---\nMine.\n");
    write(
      cwd,
      ".claude/agents/rev.md",
      "---\nname: rev\ndescription: r\ntools: Read, Grep, Glob, Bash\nmodel: haiku\n---\nReview.\n",
    );
    const { types, warnings } = loadAgentTypes({ cwd, configDir: tempDir(), home });
    expect(warnings).toEqual([]);
    const mine = types.find((t) => t.name === "mine")!;
    expect([mine.scope, mine.model]).toEqual(["user", undefined]);
    const rev = types.find((t) => t.name === "rev")!;
    expect(rev.scope).toBe("project");
    expect(rev.tools).toEqual(["read_file", "list_files", "glob_files", "grep_files", "run_shell_command"]);
    expect(rev.model).toBe("haiku");
  });

  it("a model alias keeps the parent's model off Anthropic, and names Claude's model on it", async () => {
    const { subAgentConfig } = await import("../../src/tools/delegate.js");
    const type = { ...BUILTIN_AGENT_TYPES[0]!, model: "sonnet" };
    const date = new Date("2026-01-01");
    const base = { provider: "ollama", model: "qwen3:8b", cwd: "/p" } as Parameters<typeof subAgentConfig>[0];
    expect(subAgentConfig(base, type, date)).toMatchObject({ provider: "ollama", model: "qwen3:8b" });
    expect(subAgentConfig({ ...base, provider: "anthropic", model: "claude-x" }, type, date)).toMatchObject({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
    });
  });
});
