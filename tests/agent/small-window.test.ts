// A prompt sized to the window (issue 25 §3): in a window of 8k tokens or less, the system prompt
// and the tool set are lean, and together stay within a quarter of the window. The figures are
// ours (characters / 4), the same estimate compaction and /context use.
import { afterEach, describe, expect, it } from "vitest";
import { buildSystemPrompt } from "../../src/context/prompt.js";
import { runAgent } from "../../src/agent/loop.js";
import { sentTools, systemMessage } from "../../src/agent/request.js";
import { toolSpecTokens } from "../../src/agent/compaction/run.js";
import { estimateTokens } from "../../src/protocol/tokens.js";
import { toolsFor } from "../../src/tools/catalog.js";
import { toolSpecs } from "../../src/tools/runner.js";
import { scriptedProvider } from "./scripted-provider.js";
import { smallWindow } from "../../src/protocol/window.js";
import { tempProject, testConfig } from "../tools/ctx.js";

let cleanup = (): void => {};
afterEach(() => cleanup());

const prompt = buildSystemPrompt({
  cwd: "/home/someone/projects/my-app",
  date: "2026-11-26",
  platform: "linux 6.8.0-49-generic",
  files: [],
});

function fixedCost(numCtx: number, extra: Partial<ReturnType<typeof testConfig>> = {}) {
  const config = {
    ...testConfig("/p"),
    systemPrompt: prompt.text,
    systemPromptLean: prompt.lean.text,
    numCtx,
    ...extra,
  };
  const tools = sentTools(config, toolsFor(config, undefined, []));
  const specs = toolSpecs(tools);
  return {
    names: tools.map((t) => t.name),
    tokens: estimateTokens([systemMessage(config, specs)]) + toolSpecTokens(specs),
  };
}

describe("a small window", () => {
  it("is a window Ollama runs with, or one a server reported; not the guess for a server that said nothing", () => {
    expect(smallWindow(8192)).toBe(true);
    expect(smallWindow(4096, "openai")).toBe(true);
    expect(smallWindow(8192, "openai")).toBe(false);
    // The embedded engine runs with the window agent0 gives it (the GGUF header's): 8,192 is no guess there.
    expect(smallWindow(8192, "embedded")).toBe(true);
    expect(smallWindow(8193)).toBe(false);
  });

  it("keeps system prompt plus tools within a quarter of a 4k and of an 8k window", () => {
    expect(fixedCost(4096).tokens).toBeLessThanOrEqual(4096 / 4);
    expect(fixedCost(8192).tokens).toBeLessThanOrEqual(8192 / 4);
    // The full set would be most of a 4k window (issue 25: 83 % before the user says a word).
    expect(fixedCost(32768).tokens).toBeGreaterThan(4096 / 2);
  });

  it("offers the core file and shell tools, and memory, web, todo, delegate only when configured", () => {
    expect(fixedCost(4096).names).toEqual(["read_file", "grep_files", "write_file", "edit_file", "run_shell_command"]);
    expect(fixedCost(4096, { smallWindowTools: ["todo", "memory"] }).names).toEqual(
      expect.arrayContaining(["todo_write", "memory_search", "memory_save"]),
    );
    expect(fixedCost(4096, { webSearch: { backend: "searxng", url: "http://127.0.0.1:1" } }).names).toContain(
      "web_search",
    );
    expect(fixedCost(8193).names).toEqual(
      expect.arrayContaining(["glob_files", "todo_write", "delegate", "web_fetch"]),
    );
  });

  it("sends the lean prompt and tools from the first request, once the window is known", async () => {
    const project = tempProject({});
    cleanup = project.cleanup;
    const provider = scriptedProvider([{ text: "ok" }], { contextLength: 4096 });
    const config = {
      ...testConfig(project.dir),
      numCtx: 0,
      systemPrompt: prompt.text,
      systemPromptLean: prompt.lean.text,
    };
    await runAgent([{ role: "user", content: "hi" }], config, {
      provider,
      tools: toolsFor(config, undefined, []),
      emit: () => {},
      signal: new AbortController().signal,
      askUser: async () => ({ decision: "deny" }),
    });
    const sent = provider.requests[0]!;
    expect(sent.messages[0]!.content).toBe(prompt.lean.text);
    expect(sent.tools.map((t) => t.name)).toHaveLength(5);
    expect(sent.tools.find((t) => t.name === "edit_file")!.description).toMatch(/^Replace old_string/);
  });
});
