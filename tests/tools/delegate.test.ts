import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import { runAgent, subAgentRunner, type LoopResult } from "../../src/agent/loop.js";
import type { ChatRequest } from "../../src/providers/types.js";
import { createDelegateTool, DEPTH_LIMIT_MESSAGE, subAgentConfig } from "../../src/tools/delegate.js";
import { BUILTIN_AGENT_TYPES } from "../../src/context/agent-types.js";
import { coreTools } from "../../src/tools/catalog.js";
import { runCall } from "./call.js";
import type { ToolDef } from "../../src/tools/types.js";
import { makeCtx, tempProject, testConfig } from "./ctx.js";
import { scriptedProvider, type Reply } from "../agent/scripted-provider.js";

let cleanup = (): void => {};
afterEach(() => cleanup());

function setup(files: Record<string, string>, replies: Reply[], configure: (c: RunConfig) => void = () => {}) {
  const project = tempProject(files);
  cleanup = project.cleanup;
  const provider = scriptedProvider(replies);
  const tools: ToolDef[] = [];
  tools.push(
    ...coreTools,
    createDelegateTool(() => tools, { createProvider: () => provider }),
  );
  const config = { ...testConfig(project.dir), systemPrompt: "You are the lead agent." };
  configure(config);
  const events: RunEvent[] = [];
  const run = (prompt: string): Promise<LoopResult> =>
    runAgent([{ role: "user", content: prompt }], config, {
      provider,
      tools,
      emit: (e) => events.push(e),
      signal: new AbortController().signal,
      askUser: async () => ({ decision: "deny" }),
    });
  return { dir: project.dir, provider, events, run };
}

/** A tool context whose sub-agents run on the real loop, as the loop's own contexts do. */
const withSubAgents = <T extends ReturnType<typeof makeCtx>>(ctx: T): T =>
  Object.assign(ctx, { runAgent: subAgentRunner(ctx) });

const lastMessage = (req: ChatRequest): ConversationMessage => req.messages[req.messages.length - 1]!;
const toolNames = (req: ChatRequest): string[] => req.tools.map((t) => t.name);

describe("delegate", () => {
  it("runs an explore sub-agent that reads a file and returns its answer as the tool result", async () => {
    const answer = "The launch is on May 3 (notes/plan.md, line 1).";
    const { provider, events, run } = setup({ "notes/plan.md": "Launch: May 3\n" }, [
      {
        calls: [
          { id: "lead-1", name: "delegate", args: { task: "Find the launch date in notes/.", agent_type: "explore" } },
        ],
      },
      { calls: [{ id: "sub-1", name: "read_file", args: { path: "notes/plan.md" } }] },
      { text: answer },
      { text: "May 3." },
    ]);

    const result = await run("When is the launch?");

    expect(result).toMatchObject({ reason: "complete", answer: "May 3." });
    const [, subFirst, subSecond, leadSecond] = provider.requests as [
      ChatRequest,
      ChatRequest,
      ChatRequest,
      ChatRequest,
    ];
    // The sub-agent starts fresh: its own prompt, only the task, only read-only tools.
    expect(subFirst.messages[0]!.content).toMatch(/^You are a read-only exploration sub-agent\./);
    expect(subFirst.messages.slice(1)).toEqual([{ role: "user", content: "Find the launch date in notes/." }]);
    expect(toolNames(subFirst)).toEqual(["read_file", "list_files", "glob_files", "grep_files"]);
    expect(lastMessage(subSecond)).toMatchObject({
      role: "tool",
      toolCallId: "sub-1",
      content: "     1\tLaunch: May 3",
    });
    // The parent's next request holds the sub-agent's answer as the delegate call's result.
    expect(lastMessage(leadSecond)).toMatchObject({
      role: "tool",
      toolName: "delegate",
      toolCallId: "lead-1",
      content: answer,
    });
    expect(leadSecond.messages.some((m) => m.content.includes("Launch: May 3"))).toBe(false);

    // The sub-agent's tool lines sit under the delegate line; its text never reaches the transcript.
    const toolEvents = events.filter((e) => e.type === "tool-start" || e.type === "tool-end");
    expect(toolEvents).toEqual([
      expect.objectContaining({
        type: "tool-start",
        id: "lead-1",
        label: "delegate to explore: Find the launch date in notes/.",
      }),
      expect.objectContaining({
        type: "tool-start",
        id: "lead-1/sub-1",
        parentId: "lead-1",
        label: "read notes/plan.md",
      }),
      expect.objectContaining({
        type: "tool-end",
        id: "lead-1/sub-1",
        parentId: "lead-1",
        display: expect.objectContaining({ ok: true }),
      }),
      {
        type: "tool-end",
        id: "lead-1",
        display: expect.objectContaining({ ok: true, summary: "explore: answered after 1 tool call" }),
      },
    ]);
    expect(toolEvents[0]).not.toHaveProperty("parentId");
    expect(events.filter((e) => e.type === "text")).toEqual([{ type: "text", delta: "May 3." }]);
    const messages = events.flatMap((e) => (e.type === "message" ? [e.message] : []));
    expect(messages).toEqual(result.appended);
  });

  it("keeps an explore sub-agent to its tools: create_file is not there for it", async () => {
    const { dir, provider, run } = setup(
      {},
      [
        { calls: [{ id: "lead-1", name: "delegate", args: { task: "Write x.txt", agent_type: "explore" } }] },
        { calls: [{ id: "sub-1", name: "create_file", args: { path: "x.txt", content: "hi" } }] },
        { text: "I cannot write files." },
        { text: "ok" },
      ],
      (c) => (c.permissionMode = "yolo"),
    );

    await run("go");

    expect(toolNames(provider.requests[1]!)).not.toContain("create_file");
    expect(lastMessage(provider.requests[2]!)).toMatchObject({
      role: "tool",
      content: 'Error: unknown tool "create_file". Available tools: read_file, list_files, glob_files, grep_files.',
    });
    expect(fs.existsSync(path.join(dir, "x.txt"))).toBe(false);
  });

  it("nests general sub-agents three levels deep and refuses a fourth level", async () => {
    const level = (n: number, id: string): Reply => ({
      calls: [{ id, name: "delegate", args: { task: `level ${n}` } }],
    });
    const { provider, events, run } = setup({}, [
      level(1, "d0"),
      level(2, "d1"),
      level(3, "d2"),
      level(4, "d3"),
      { text: "done at level 3 myself" },
      { text: "level 2 done" },
      { text: "level 1 done" },
      { text: "all done" },
    ]);

    const result = await run("go deep");

    expect(result.answer).toBe("all done");
    const reqs = provider.requests;
    expect(reqs.map((r) => lastMessage(r).content)).toEqual([
      "go deep",
      "level 1",
      "level 2",
      "level 3",
      DEPTH_LIMIT_MESSAGE,
      "done at level 3 myself",
      "level 2 done",
      "level 1 done",
    ]);
    expect(DEPTH_LIMIT_MESSAGE).toBe("Error: delegation is limited to 3 levels; do this task yourself.");
    const starts = events.flatMap((e) => (e.type === "tool-start" ? [[e.id, e.parentId]] : []));
    expect(starts).toEqual([
      ["d0", undefined],
      ["d0/d1", "d0"],
      ["d0/d1/d2", "d0/d1"],
      ["d0/d1/d2/d3", "d0/d1/d2"],
    ]);
    const refused = events.find((e) => e.type === "tool-end" && e.id === "d0/d1/d2/d3");
    expect(refused).toMatchObject({ display: { ok: false, summary: DEPTH_LIMIT_MESSAGE } });
  });

  it("refuses at depth 3 without starting a model", async () => {
    const provider = scriptedProvider([]);
    const tool = createDelegateTool(() => [], { createProvider: () => provider });
    const ctx = { ...makeCtx("/tmp"), depth: 3 };
    const result = await runCall({ id: "c", name: "delegate", args: { task: "x" } }, [tool], ctx);
    expect(result).toEqual({ content: DEPTH_LIMIT_MESSAGE, isError: true });
    expect(provider.requests).toHaveLength(0);
  });

  it("asks for a sub-agent's change through the parent's approval", async () => {
    const project = tempProject({});
    cleanup = project.cleanup;
    const provider = scriptedProvider([
      { calls: [{ id: "s1", name: "create_file", args: { path: "new.txt", content: "hi\n" } }] },
      { text: "The user said no." },
    ]);
    const tools: ToolDef[] = [...coreTools];
    const tool = createDelegateTool(() => tools, { createProvider: () => provider });
    const ctx = withSubAgents(makeCtx(project.dir, { deny: "not now", callId: "lead-9" }));
    ctx.config.interactive = true;

    const result = await runCall({ id: "lead-9", name: "delegate", args: { task: "make new.txt" } }, [tool], ctx);

    expect(result.content).toBe("The user said no.");
    expect(ctx.approvals.map((a) => [a.tool, a.kind])).toEqual([["create_file", "edit"]]);
    expect(fs.existsSync(path.join(project.dir, "new.txt"))).toBe(false);
    // The parent's own denial, with its reason, reaches the sub-agent.
    expect(lastMessage(provider.requests[1]!).content).toBe("Denied by the user: not now");
    const starts = ctx.events.flatMap((e) => (e.type === "tool-start" ? [[e.id, e.parentId]] : []));
    expect(starts).toEqual([
      ["lead-9", undefined],
      ["lead-9/s1", "lead-9"],
    ]);
  });

  it("reports a sub-agent that the stuck rules stopped, with the reason", async () => {
    const project = tempProject({ "a.txt": "a\n" });
    cleanup = project.cleanup;
    const same = (id: string): Reply => ({ calls: [{ id, name: "read_file", args: { path: "a.txt" } }] });
    const provider = scriptedProvider([same("s1"), same("s2"), same("s3")]);
    const tool = createDelegateTool(() => [...coreTools], { createProvider: () => provider });
    const ctx = withSubAgents(makeCtx(project.dir));
    const result = await runCall(
      { id: "c", name: "delegate", args: { task: "x", agent_type: "explore" } },
      [tool],
      ctx,
    );
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^Error: the explore sub-agent was stopped: Stopped: read_file .* 3 times in a row with the same arguments\.$/,
    );
    expect(ctx.events.filter((e) => e.type === "notice").map((e) => e.type === "notice" && e.text)).toEqual([
      expect.stringMatching(/^explore sub-agent: Stopped: /),
    ]);
  });

  it("reports a sub-agent that failed, and an unknown type", async () => {
    const provider = scriptedProvider([{ error: "the server broke" }]);
    const tool = createDelegateTool(() => [...coreTools], { createProvider: () => provider });
    const failed = await runCall(
      { id: "c", name: "delegate", args: { task: "x", agent_type: "explore" } },
      [tool],
      withSubAgents(makeCtx("/tmp")),
    );
    expect(failed).toEqual({ content: "Error: the explore sub-agent failed: the server broke", isError: true });

    const unknown = await runCall(
      { id: "c", name: "delegate", args: { task: "x", agent_type: "wizard" } },
      [tool],
      makeCtx("/tmp"),
    );
    expect(unknown).toEqual({
      content: 'Error: no agent type "wizard". Available: general, explore, research.',
      isError: true,
    });
  });
});

describe("subAgentConfig", () => {
  const parent: RunConfig = { ...testConfig("/p"), systemPrompt: "lead", apiKey: "k", baseUrl: "http://x" };
  const date = new Date("2026-03-14T12:00:00Z");
  const general = BUILTIN_AGENT_TYPES[0]!;
  const explore = BUILTIN_AGENT_TYPES[1]!;

  it("gives the type's prompt with the working folder, and keeps the parent's context size", () => {
    const c = subAgentConfig(parent, explore, date);
    expect(
      c.systemPrompt.endsWith(`# Environment\nDate: 2026-03-14\nPlatform: ${process.platform}\nWorking folder: /p`),
    ).toBe(true);
    expect(c.numCtx).toBe(parent.numCtx);
    expect(c.toolFilter).toEqual(explore.tools);
    expect(subAgentConfig(parent, general, date).toolFilter).toBeUndefined();
    expect(c.allowedTools).toBe(parent.allowedTools);
  });

  it("never widens a restricted parent's tools", () => {
    const restricted = { ...parent, toolFilter: ["read_file", "delegate"] };
    expect(subAgentConfig(restricted, explore, date).toolFilter).toEqual(["read_file"]);
    expect(subAgentConfig(restricted, general, date).toolFilter).toEqual(["read_file", "delegate"]);
  });

  it("switches model, and provider with a prefix, leaving the parent's key behind", () => {
    const own = { ...explore, model: "qwen3:8b" };
    expect(subAgentConfig(parent, own, date)).toMatchObject({ provider: "ollama", model: "qwen3:8b", apiKey: "k" });
    const hosted = subAgentConfig(parent, { ...explore, model: "anthropic/claude-haiku-4-5" }, date);
    expect(hosted).toMatchObject({ provider: "anthropic", model: "claude-haiku-4-5" });
    expect(hosted.apiKey).toBeUndefined();
    expect(hosted.baseUrl).toBeUndefined();
  });
});

describe("a Claude model name on a local session", () => {
  // docs.anthropic.com/en/docs/claude-code/sub-agents: `model: sonnet` names Claude's model; a
  // local session keeps its own and says so, rather than failing or moving the work.
  it("runs the sub-agent on the session's model and tells the user", async () => {
    const { events, run, dir } = setup(
      {},
      [
        { calls: [{ id: "lead-1", name: "delegate", args: { task: "Review.", agent_type: "rev" } }] },
        { text: "Looks fine." },
        { text: "Reviewed." },
      ],
      (c) => (c.model = "qwen3:8b"),
    );
    fs.mkdirSync(path.join(dir, ".claude", "agents"), { recursive: true });
    fs.writeFileSync(
      path.join(dir, ".claude", "agents", "rev.md"),
      "---\nname: rev\ndescription: Reviews.\nmodel: sonnet\n---\nReview.\n",
    );
    const result = await run("review it");
    expect(result.answer).toBe("Reviewed.");
    expect(events).toContainEqual({
      type: "notice",
      level: "info",
      text: "rev names Claude's model \"sonnet\"; it runs on this session's model, qwen3:8b.",
    });
  });
});
