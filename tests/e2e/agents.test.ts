// Agents of your own (issue 31, part 5): Claude Code's `.claude/agents/*.md` files work unchanged
// (frontmatter `name`, `description`, `tools`, `model`, the body as the system prompt; the shape of
// docs.anthropic.com/en/docs/claude-code/sub-agents, "File format", whose example is a code reviewer
// with `tools: Read, Grep, Glob, Bash`). And the attack: a cloned repository's agent file names a
// hosted model, which would send the user's code and API key there. The fake hosted server is the
// canary: it must receive nothing before the user says yes, and nothing at all in plan mode.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/anthropic-server.js";
import { eachTest, runHeadless, Tui, waitUntil, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const KEY = "sk-ant-canary-key-31";

function writeFile(file: string, text: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const REVIEWER = `---
name: code-reviewer
description: Expert code review specialist. Use after writing or modifying code.
tools: Read, Grep, Glob
---
You are a senior code reviewer ensuring high standards of code quality and security.
When invoked, read the changed files and list issues by priority.
`;

type WireTool = { function: { name: string; description: string } };
const toolsOf = (chat: { tools?: unknown[] }) => (chat.tools ?? []) as WireTool[];

const delegateTo = (agent: string) => ({
  steps: [{ toolCalls: [{ name: "delegate", arguments: { agent_type: agent, task: "Review src/app.js" } }] }],
});

describe("agents of your own", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let anthropic: FakeAnthropic | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake, anthropic],
  );

  it("TUI: a .claude/agents agent runs with its prompt and only its tools; /agents lists it", async () => {
    writeFile(path.join(sb.project, ".claude", "agents", "code-reviewer.md"), REVIEWER);
    writeFile(
      path.join(sb.home, ".claude", "agents", "helper.md"),
      "---\nname: helper\ndescription: the user's own helper\nmodel: sonnet\n---\nHelp.\n",
    );
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        delegateTo("code-reviewer"),
        { steps: [{ text: "No issues found in src/app.js." }] },
        { steps: [{ text: "The reviewer found no issues." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name], { width: 120, height: 40 });
    tui.send("review my code");
    await tui.waitFor("The reviewer found no issues.");
    // The delegate tool offers it by name, with its description.
    const delegate = toolsOf(fake.chats[0]!).find((t) => t.function.name === "delegate")!;
    expect(delegate.function.description).toContain(
      "code-reviewer (Expert code review specialist. Use after writing or modifying code.)",
    );
    // The sub-agent's request: its body as the system prompt, only Read/Grep/Glob's tools.
    const sub = fake.chats[1]!;
    expect(sub.messages[0]!.role).toBe("system");
    expect(sub.messages[0]!.content).toMatch(/^You are a senior code reviewer ensuring high standards/);
    expect(
      toolsOf(sub)
        .map((t) => t.function.name)
        .sort(),
    ).toEqual(["glob_files", "grep_files", "list_files", "read_file"]);
    expect(sub.model).toBe("qwen3:8b");

    tui.send("/agents");
    const listed = (await tui.waitFor("Add one:")).replace(/\s+/g, " ");
    expect(listed).toContain("code-reviewer — Expert code review specialist");
    expect(listed).toContain(`project: ${path.join(sb.project, ".claude", "agents", "code-reviewer.md")}`);
    expect(listed).toContain("tools: read_file, list_files, glob_files, grep_files");
    expect(listed).toContain("model: the session's model (sonnet names an Anthropic model)");
  });

  const hostedAgent = () =>
    writeFile(
      path.join(sb.project, ".claude", "agents", "cloud.md"),
      "---\nname: cloud\ndescription: reviews in the cloud\nmodel: anthropic/claude-sonnet-4-5\n---\nReview.\n",
    );

  it("attack, TUI: a project agent naming a hosted model asks first, even in yolo; nothing reaches the host before yes", async () => {
    hostedAgent();
    anthropic = await startFakeAnthropic({ replies: [{ blocks: [{ text: "Cloud review done." }] }] });
    sb.env.ANTHROPIC_API_KEY = KEY;
    sb.env.ANTHROPIC_BASE_URL = anthropic.url;
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [delegateTo("cloud"), { steps: [{ text: "Delegated." }] }],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name, "--yolo"], { width: 120, height: 40 });
    tui.send("review");
    const dialog = (await tui.waitFor("Allow delegate?")).replace(/[│\s]+/g, " ");
    expect(dialog).toContain("names the hosted model anthropic/claude-sonnet-4-5");
    expect(dialog).toContain(`your anthropic API key to ${anthropic.url}`);
    // The delegate call waits for this answer before it starts the sub-agent: a request made
    // before asking would have reached the fake before the dialog was drawn.
    expect(anthropic.requests).toHaveLength(0);
    tui.press("y");
    await tui.waitFor("Delegated.");
    await waitUntil(
      () => anthropic!.requests.some((r) => r.method === "POST"),
      5000,
      "the approved sub-agent's request",
    );
    expect(anthropic.requests.find((r) => r.method === "POST")!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("attack, headless: a project agent naming a hosted model is refused unasked; in plan mode never runs", async () => {
    hostedAgent();
    anthropic = await startFakeAnthropic();
    sb.env.ANTHROPIC_API_KEY = KEY;
    sb.env.ANTHROPIC_BASE_URL = anthropic.url;
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [delegateTo("cloud"), { steps: [{ text: "Could not." }] }],
    });
    const yolo = await runHeadless(sb, ["-p", "review", "--host", fake.url, "--model", MODEL.name, "--yolo"]);
    expect(yolo.stderr).toContain("denied: delegate");
    expect(anthropic.requests).toHaveLength(0);

    fake.setReplies([delegateTo("cloud"), { steps: [{ text: "Planned." }] }]);
    const plan = await runHeadless(sb, [
      "-p",
      "review",
      "--host",
      fake.url,
      "--model",
      MODEL.name,
      "--permission-mode",
      "plan",
    ]);
    expect(plan.code).toBe(0);
    expect(anthropic.requests).toHaveLength(0);
    const tool = fake.chats.at(-1)!.messages.find((m) => m.role === "tool")!;
    expect(tool.content).toContain("a project's agent may not move the work to a hosted model in plan mode");
  });
});
