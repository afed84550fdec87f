import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import { runAgent } from "../../src/agent/loop.js";
import fs from "node:fs";
import path from "node:path";
import { coreTools } from "../../src/tools/catalog.js";
import { skillsTool } from "../../src/tools/skills.js";
import { scriptedProvider, type Reply } from "./scripted-provider.js";
import { tempProject, testConfig } from "../tools/ctx.js";

let cleanup = (): void => {};
afterEach(() => cleanup());

async function run(replies: Reply[], configure: (c: RunConfig) => void = () => {}, info = {}) {
  const project = tempProject({ "a.txt": "alpha\n" });
  cleanup = project.cleanup;
  const provider = scriptedProvider(replies, info);
  const config = { ...testConfig(project.dir), systemPrompt: "You are agent0.", permissionMode: "yolo" as const };
  configure(config);
  const events: RunEvent[] = [];
  const result = await runAgent([{ role: "user", content: "go" }], config, {
    provider,
    tools: coreTools,
    emit: (e) => events.push(e),
    signal: new AbortController().signal,
    askUser: async () => ({ decision: "deny" }),
  });
  const notices = events.flatMap((e) => (e.type === "notice" ? [e.text] : []));
  return { result, events, notices, provider, config };
}

describe("the agent loop", () => {
  it("calls the model, runs the tools it asks for, and ends with its answer", async () => {
    const { result, provider } = await run([
      { calls: [{ id: "c1", name: "read_file", args: { path: "a.txt" } }] },
      { text: "It says alpha." },
    ]);
    expect(result.reason).toBe("complete");
    expect(result.answer).toBe("It says alpha.");
    const second = provider.requests[1]!.messages;
    expect(second.at(-1)).toMatchObject({ role: "tool", toolCallId: "c1", toolName: "read_file" });
    expect(second.at(-1)!.content).toContain("alpha");
  });

  it("warns when Ollama read far fewer prompt tokens than were sent (silent truncation)", async () => {
    const big = "x".repeat(20_000);
    const { notices } = await run(
      [
        { calls: [{ id: "c1", name: "read_file", args: { path: "a.txt" } }], promptTokens: 1200 },
        { text: "done", promptTokens: 1200 },
      ],
      (c) => {
        c.systemPrompt = big;
        c.numCtx = 8192;
      },
    );
    const warnings = notices.filter((n) => n.includes("no longer sees the start of the conversation"));
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toContain("The server cut the prompt to 1,200 tokens (it read 1200 of about");
  });

  // ggml-org/llama.cpp tools/server: exceed_context_size_error's message.
  const overflow = "request (9120 tokens) exceeds the available context size (4096 tokens), try increasing it";

  it("compacts to the window an overflow 400 names and retries once, with one notice", async () => {
    const { result, notices } = await run(
      [
        { calls: [{ id: "c1", name: "read_file", args: { path: "a.txt" } }] },
        { calls: [{ id: "c2", name: "read_file", args: { path: "a.txt" } }] },
        { error: overflow },
        { text: "Summary: the user asked to go; a.txt says alpha." },
        { text: "done" },
      ],
      (c) => {
        c.provider = "openai";
        c.numCtx = 8192;
      },
    );
    expect(result.reason).toBe("complete");
    expect(result.answer).toBe("done");
    expect(
      notices.filter((n) => n.includes("refused the prompt as longer than its context window (4,096 tokens)")),
    ).toHaveLength(1);
  });

  it("a second overflow ends the run with what to do", async () => {
    const { result, events } = await run(
      [
        { calls: [{ id: "c1", name: "read_file", args: { path: "a.txt" } }] },
        { error: overflow },
        { text: "Summary: a.txt says alpha." },
        { error: overflow },
      ],
      (c) => {
        c.provider = "openai";
      },
    );
    expect(result.reason).toBe("error");
    expect(events.some((e) => e.type === "error" && e.message.includes("exceeds the available context size"))).toBe(
      true,
    );
  });

  it("does not warn when the prompt was read whole", async () => {
    const { notices } = await run([{ text: "done", promptTokens: 2000 }]);
    expect(notices.some((n) => n.includes("cut the start"))).toBe(false);
  });

  it("switches to the JSON reply protocol when the server says the model cannot use tools, and retries", async () => {
    const { result, notices, provider } = await run([
      { error: "registry.ollama.ai/library/gemma3:4b does not support tools", errorKind: "no-tools" },
      { text: '{"thoughts": ["answer"], "tool_name": "response", "tool_args": {"text": "Hello from JSON."}}' },
    ]);
    expect(notices.some((n) => n.includes("switching this session to the JSON reply protocol"))).toBe(true);
    expect(provider.requests[1]!.tools).toEqual([]);
    expect(provider.requests[1]!.messages[0]!.content).toContain("tool_name");
    expect(result.answer).toBe("Hello from JSON.");
  });

  it("never changes the caller's config: what the run learns (model, num_ctx, protocol) stays in its copy", async () => {
    let before: RunConfig | undefined;
    const { config } = await run(
      [
        { error: "gemma3:4b does not support tools", errorKind: "no-tools" },
        { text: '{"thoughts": ["a"], "tool_name": "response", "tool_args": {"text": "ok"}}' },
      ],
      (c) => {
        c.numCtx = 0;
        before = structuredClone(c);
      },
    );
    expect(config).toEqual(before);
  });

  it("gives an empty reply one corrective message, and stops after two unusable replies in a row", async () => {
    const { result, provider, notices } = await run([{ text: "" }, { text: "" }, { text: "" }]);
    expect(result.reason).toBe("stuck");
    expect(provider.requests).toHaveLength(2);
    expect(notices).toContain("The model's reply was empty; asked it to try again.");
    const corrective = provider.requests[1]!.messages.at(-1)!;
    expect(corrective.role).toBe("user");
    expect(notices.at(-1)).toContain("Type a message to continue the work.");
  });

  it("polls of a background command that is not running count again: the third same poll stops the run", async () => {
    // Issue 43 §3: polls of a command are progress only "while the command runs or its output
    // changes" (tools/shell/job-tools.ts waitsOnJobs); a poll of one that is gone is a repeated call.
    const poll = (i: number) => ({ calls: [{ id: `p${i}`, name: "shell_output", args: { id: "bash_1", wait: 0 } }] });
    const { result, provider } = await run([poll(1), poll(2), poll(3), { text: "never asked for" }]);
    expect(result.reason).toBe("stuck");
    expect(provider.requests).toHaveLength(3);
  });

  it("stops at the step cap with a visible notice", async () => {
    const replies = Array.from({ length: 5 }, (_, i) => ({
      calls: [{ id: `c${i}`, name: "read_file", args: { path: "a.txt", offset: i + 1 } }],
    }));
    const { result, notices } = await run(replies, (c) => (c.maxSteps = 3));
    expect(result.reason).toBe("max-steps");
    expect(notices.at(-1)).toMatch(/Type a message to continue/);
  });

  it("a skill the model loads limits the tools of the rest of the run to its allowed-tools", async () => {
    const project = tempProject({
      ".agent0/skills/readonly/SKILL.md":
        "---\nname: readonly\ndescription: look only\nallowed-tools: read_file\n---\nOnly read.\n",
    });
    cleanup = project.cleanup;
    const provider = scriptedProvider([
      { calls: [{ id: "s1", name: "skills", args: { action: "load", name: "readonly" } }] },
      { calls: [{ id: "c1", name: "create_file", args: { path: "x.txt", content: "no" } }] },
      { text: "done" },
    ]);
    const config = { ...testConfig(project.dir), configDir: project.dir + "/.cfg", permissionMode: "yolo" as const };
    const events: RunEvent[] = [];
    await runAgent([{ role: "user", content: "go" }], config, {
      provider,
      tools: [...coreTools, skillsTool],
      emit: (e) => events.push(e),
      signal: new AbortController().signal,
      askUser: async () => ({ decision: "deny" }),
    });
    // The tool list stays as it was (it is the front of every request: the prompt cache holds);
    // a call outside allowed-tools is refused when it runs.
    expect(provider.requests[0]!.tools.map((t) => t.name)).toContain("create_file");
    expect(JSON.stringify(provider.requests[1]!.tools)).toBe(JSON.stringify(provider.requests[0]!.tools));
    const refused = provider.requests[2]!.messages.at(-1)!;
    expect(refused.role).toBe("tool");
    expect(refused.toolName).toBe("create_file");
    expect(refused.content).toContain("only these tools may be used for the rest of this run: read_file");
    expect(fs.existsSync(path.join(project.dir, "x.txt"))).toBe(false);
  });
});
