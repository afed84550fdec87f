// Issue 5 end to end: what the model is told (AGENTS.md, skills, memory) and what the user can
// type (slash commands, the /model picker), against the fake Ollama.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type RecordedChat } from "../fakes/ollama-server.js";
import { runHeadless, sleep, Tui, type Sandbox, eachTest } from "./harness.js";

const AGENTS_MD = "Always answer in haiku. Project codename: BLUE-HERON.";
const SKILLS_MD = [
  "# Project skills",
  "",
  "## /myskill <thing>",
  "Explain {thing} to a newcomer, then list three pitfalls of {thing}.",
  "",
].join("\n");

/**
 * Skills load just after the first frame: Tab (which does nothing while nothing matches) is
 * pressed until `/mys` completes. Leaves "/myskill " in the input.
 */
async function completeSkillName(tui: Tui): Promise<void> {
  tui.type("/mys");
  for (let i = 0; i < 20; i++) {
    tui.press("Tab");
    if (
      // The input line itself (the menu under it also shows "› /myskill <topic>  …").
      await tui.waitFor(/^› \/myskill\s*$/m, 250).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  throw new Error(`/mys never completed; screen was:\n${tui.screen()}`);
}

const lastUser = (chat: RecordedChat) => [...chat.messages].reverse().find((m) => m.role === "user")?.content;
const systemOf = (chat: RecordedChat) => chat.messages.find((m) => m.role === "system")?.content ?? "";

describe("project context, skills and slash commands in the TUI", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("/myskill foo sends the expanded template with AGENTS.md in the system message; /model picks another model", async () => {
    fs.writeFileSync(path.join(sb.project, "AGENTS.md"), AGENTS_MD);
    fs.mkdirSync(path.join(sb.project, ".agent0"));
    fs.writeFileSync(path.join(sb.project, ".agent0", "skills.md"), SKILLS_MD);
    fake = await startFakeOllama({
      models: [
        { name: "qwen3:8b", contextLength: 40960, size: 5_200_000_000 },
        { name: "llama3.2:3b", contextLength: 131072, size: 2_000_000_000 },
        { name: "gemma:2b", contextLength: 8192, size: 1_700_000_000, capabilities: ["completion"] },
      ],
      replies: [{ steps: [{ text: "Skill answer done." }] }, { steps: [{ text: "Answer from the second model." }] }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"], { width: 110, height: 36 });
    await tui.waitFor("Ask anything");

    // Tab completes the skill's name, with a space after it (tmux trims it from the screen):
    // "foo" follows it directly.
    await completeSkillName(tui);
    tui.type("foo");
    await tui.waitFor("› /myskill foo");
    tui.press("Enter");
    const afterSkill = await tui.waitFor("Skill answer done.");
    // The transcript shows what was typed, and that it was expanded.
    expect(afterSkill).toMatch(/\/myskill foo\s*\n\s*\(expanded skill\)/);
    expect(afterSkill).not.toContain("Explain foo to a newcomer");
    const chat = fake.chats[0]!;
    expect(lastUser(chat)).toBe("Explain foo to a newcomer, then list three pitfalls of foo.");
    expect(systemOf(chat)).toContain(AGENTS_MD);
    expect(systemOf(chat)).toContain("AGENTS.md");
    expect(chat.model).toBe("qwen3:8b");

    tui.type("/model");
    tui.press("Enter");
    let screen = await tui.waitFor("llama3.2:3b");
    // Each model with its size, context length and how it will call tools.
    expect(screen).toMatch(/qwen3:8b\s.*5\.2 GB · ctx 40960 · tools: native \+ text recovery/);
    expect(screen).toMatch(/llama3\.2:3b\s.*2\.0 GB · ctx 131072 · tools: native \+ text recovery/);
    expect(screen).toMatch(/gemma:2b\s.*1\.7 GB · ctx 8192 · tools: JSON reply protocol/);
    tui.press("Down");
    await sleep(100);
    tui.press("Enter");
    await tui.waitFor("Model: llama3.2:3b");
    tui.type("hello again");
    tui.press("Enter");
    screen = await tui.waitFor("Answer from the second model.");
    expect(fake.chats).toHaveLength(2);
    expect(fake.chats[1]!.model).toBe("llama3.2:3b");
    expect(fake.chats[1]!.options?.num_ctx).toBe(32768);
  });

  it("a skill given as the first prompt on the command line is expanded and sent", async () => {
    fs.mkdirSync(path.join(sb.project, ".agent0"));
    fs.writeFileSync(path.join(sb.project, ".agent0", "skills.md"), SKILLS_MD);
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: [{ steps: [{ text: "Skill answer done." }] }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b", "/myskill bar"]);
    const screen = await tui.waitFor(/Skill answer done\.|Unknown command/);
    expect(screen).not.toContain("Unknown command");
    expect(lastUser(fake.chats[0]!)).toBe("Explain bar to a newcomer, then list three pitfalls of bar.");
  });

  it("/help lists commands and skills; an unknown command gets a hint and sends nothing", async () => {
    fs.mkdirSync(path.join(sb.project, ".agent0"));
    fs.writeFileSync(path.join(sb.project, ".agent0", "skills.md"), SKILLS_MD);
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b" }] });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"], { width: 110, height: 100 });
    await tui.waitFor("Ask anything");
    await completeSkillName(tui);
    tui.press("C-u");
    await tui.waitFor("Ask anything");
    tui.type("/help");
    tui.press("Enter");
    const screen = await tui.waitFor("/myskill <thing>");
    for (const cmd of [
      "/help",
      "/model [name]",
      "/new",
      "/clear",
      "/sessions",
      "/resume <id>",
      "/context",
      "/compact",
      "/skills",
      "/memory",
      "/permissions [mode|remove <n>]",
      "/agents",
      "/hooks",
      "/thinking",
      "/quit",
    ]) {
      expect(screen).toContain(cmd);
    }
    expect(screen).toMatch(/\/myskill <thing>\s+Explain \{thing\} to a newcomer/);

    tui.type("/frobnicate now");
    tui.press("Enter");
    await tui.waitFor("Unknown command /frobnicate");
    expect(tui.screen()).toContain("/help");
    // The next prompt is the first request the server sees.
    tui.press("C-u");
    await tui.waitFor("Ask anything");
    tui.send("a plain question");
    await fake.waitForChats(1);
    expect(fake.chats).toHaveLength(1);
    expect(fake.chats[0]!.messages.at(-1)!.content).toBe("a plain question");
  });
});

describe("memory across sessions", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  // yaml loads from a file of its own in the bundle (dist/bundle/yaml.cjs) when frontmatter is met.
  it("a SKILL.md skill's YAML frontmatter is read: its name and description are in the system prompt", async () => {
    const dir = path.join(sb.project, ".agent0", "skills", "release-notes");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "SKILL.md"),
      "---\nname: relnotes\ndescription: 'Write release notes: one line per merged change'\n---\nList the merged changes.\n",
    );
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b" }], replies: [{ steps: [{ text: "ok" }] }] });
    const r = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", "qwen3:8b"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(systemOf(fake.chats[0]!)).toMatch(/relnotes.*Write release notes: one line per merged change/);
  });

  it("a memory the model saves is in the index of the next session's system prompt", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: [
        {
          steps: [
            {
              toolCalls: [
                {
                  name: "memory_save",
                  arguments: {
                    name: "test-runner",
                    description: "Run the tests with pnpm vitest, never npm test",
                    type: "project",
                    content: "The user wants tests run with `pnpm vitest`.",
                  },
                },
              ],
            },
          ],
        },
        { steps: [{ text: "Saved." }] },
        { steps: [{ text: "Second session." }] },
      ],
    });
    const first = await runHeadless(sb, [
      "-p",
      "remember how to run tests",
      "--host",
      fake.url,
      "--model",
      "qwen3:8b",
      "--yolo",
    ]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe("Saved.");
    const toolResult = fake.chats[1]!.messages.find((m) => m.role === "tool");
    expect(toolResult?.content).not.toMatch(/^Error/);
    expect(systemOf(fake.chats[0]!)).not.toContain("test-runner");

    const second = await runHeadless(sb, ["-p", "what do you remember?", "--host", fake.url, "--model", "qwen3:8b"]);
    expect(second.code).toBe(0);
    // A project memory: in the project's index, and that line in the next session's prompt.
    const index = fs.readFileSync(path.join(sb.project, ".agent0", "memory", "MEMORY.md"), "utf8");
    expect(index).toBe("- [test-runner](test-runner.md) — Run the tests with pnpm vitest, never npm test\n");
    expect(systemOf(fake.chats[2]!)).toContain(index.trim());
  });
});
