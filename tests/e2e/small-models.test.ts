// Issue 7 end to end: small local models. A model without native tool calling is driven by
// the JSON reply protocol; a 400 "does not support tools" switches to it; a tool call written
// into the text by a tool-capable model is recovered and run.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type RecordedChat, type Reply } from "../fakes/ollama-server.js";
import { runHeadless, sleep, Tui, type Sandbox, eachTest } from "./harness.js";

const say = (text: string): Reply => ({ steps: [{ text }] });
const systemOf = (chat: RecordedChat) => chat.messages.find((m) => m.role === "system")?.content ?? "";
const readProject = (sb: Sandbox, file: string) => fs.readFileSync(path.join(sb.project, file), "utf8");

/** A small model's JSON reply: in a code fence, with a trailing comma, as they often come. */
const CREATE_REPLY =
  "```json\n" +
  JSON.stringify({
    thoughts: ["The user wants a greeting file.", "I will create hello.txt."],
    tool_name: "create_file",
    tool_args: { path: "hello.txt", content: "Hello from a small model\n" },
  }).replace(/}}$/, "},}") +
  "\n```";
const RESPONSE_REPLY = JSON.stringify({
  thoughts: ["Done."],
  tool_name: "response",
  tool_args: { text: "Created hello.txt." },
});

describe("small local models", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("a model without the tools capability creates a file through the JSON reply protocol", async () => {
    fake = await startFakeOllama({
      models: [{ name: "tiny:1b", capabilities: ["completion"] }],
      replies: [say(CREATE_REPLY), say(RESPONSE_REPLY)],
    });
    const r = await runHeadless(sb, [
      "-p",
      "create hello.txt with a greeting",
      "--host",
      fake.url,
      "--model",
      "tiny:1b",
      "--yolo",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("Created hello.txt.");
    expect(readProject(sb, "hello.txt")).toBe("Hello from a small model\n");

    expect(fake.chats).toHaveLength(2);
    for (const chat of fake.chats) expect("tools" in chat.body).toBe(false);
    const system = systemOf(fake.chats[0]!);
    expect(system).toContain(
      '{"thoughts": ["short reasoning", "..."], "tool_name": "<tool name>", "tool_args": {<arguments>}}',
    );
    expect(system).toContain(
      '{"thoughts": ["..."], "tool_name": "response", "tool_args": {"text": "your answer, in markdown"}}',
    );
    expect(system).toContain("## create_file");
    // The model sees its own call as the JSON it wrote, and the result as a user message.
    const [, assistant, result] = fake.chats[1]!.messages.slice(-3);
    expect(assistant!.role).toBe("assistant");
    expect(JSON.parse(assistant!.content)).toMatchObject({
      tool_name: "create_file",
      tool_args: { path: "hello.txt" },
    });
    expect(result!.role).toBe("user");
    expect(result!.content).toMatch(/^Result of create_file:\n/);
  });

  it("a 400 'does not support tools' switches the session to the JSON protocol, with a notice, and retries", async () => {
    // No capabilities reported: the app cannot tell, so it sends tools and the server refuses them.
    fake = await startFakeOllama({
      models: [{ name: "mystery:3b", capabilities: [] }],
      replies: [say(CREATE_REPLY), say(RESPONSE_REPLY)],
    });
    const r = await runHeadless(sb, [
      "-p",
      "create hello.txt with a greeting",
      "--host",
      fake.url,
      "--model",
      "mystery:3b",
      "--yolo",
    ]);
    expect(r.stderr).toBe(
      "warn: mystery:3b cannot call tools natively; switching this session to the JSON reply protocol.\n",
    );
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("Created hello.txt.");
    expect(readProject(sb, "hello.txt")).toBe("Hello from a small model\n");
    const chatBodies = fake.requests
      .filter((q) => q.path === "/api/chat")
      .map((q) => q.body as Record<string, unknown>);
    expect(chatBodies.map((b) => Array.isArray(b.tools) && b.tools.length > 0)).toEqual([true, false, false]);
    expect(systemOf(fake.chats[0]!)).toContain("# How to reply");
  });

  it("a <tool_call> a tool-capable model writes into its text is run, not shown as raw text", async () => {
    // Streamed slowly, so the screen can be looked at while the markup is arriving.
    const streamed: Reply = {
      steps: [
        { text: "I'll create the file now.\n" },
        { text: '<tool_call>\n{"name": "create_file", ', delayMs: 50 },
        { text: '"arguments": {"path": "hello.txt", "content": "hi\\n"}}\n</tool_call>', delayMs: 600 },
      ],
    };
    fake = await startFakeOllama({
      models: [{ name: "qwen2.5-coder:7b" }],
      replies: [streamed, say("Created hello.txt for you.")],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen2.5-coder:7b", "--yolo"]);
    await tui.waitFor("Ask anything");
    tui.type("create hello.txt");
    tui.press("Enter");
    // Every frame from the prose to the answer after the call, the ~600 ms the markup is arriving
    // included, is looked at: none shows the markup.
    let screen = await tui.waitFor("I'll create the file now.");
    const frames: string[] = [];
    const deadline = Date.now() + 15_000;
    while (!screen.includes("Created hello.txt for you.") && Date.now() < deadline) {
      frames.push(screen);
      await sleep(20);
      screen = tui.screen();
    }
    expect(screen).toContain("Created hello.txt for you.");
    expect(frames.length).toBeGreaterThan(1);
    expect(frames.filter((f) => f.includes("<tool_call>") || f.includes('"create_file"'))).toEqual([]);
    expect(readProject(sb, "hello.txt")).toBe("hi\n");
    expect(screen).not.toContain("<tool_call>");
    expect(screen).not.toContain('"arguments"');
    expect(screen).toContain("I'll create the file now.");
    expect(screen).toContain("hello.txt");
    // The history sent back holds a structured call and its result.
    const [assistant, result] = fake.chats[1]!.messages.slice(-2);
    expect(assistant!.tool_calls?.[0]?.function).toEqual({
      name: "create_file",
      arguments: { path: "hello.txt", content: "hi\n" },
    });
    expect(assistant!.content).toBe("I'll create the file now.");
    expect(result!.role).toBe("tool");
    expect(result!.tool_name).toBe("create_file");
  });

  it("a small model that never writes usable JSON gets one format reminder and is stopped after 2", async () => {
    fake = await startFakeOllama({
      models: [{ name: "tiny:1b", capabilities: ["completion"] }],
      replies: () => say("Sure! I would be happy to help you with that file."),
    });
    const r = await runHeadless(sb, ["-p", "create hello.txt", "--host", fake.url, "--model", "tiny:1b", "--yolo"]);
    expect(r.code).not.toBe(0);
    expect(fake.chats).toHaveLength(2);
    const reminder = fake.chats[1]!.messages.at(-1)!;
    expect(reminder.role).toBe("user");
    expect(reminder.content).toContain("Your last reply could not be used: the reply held no JSON object.");
    expect(reminder.content).toContain(
      '{"thoughts": ["..."], "tool_name": "response", "tool_args": {"text": "your answer"}}',
    );
    expect(r.stderr).toContain("Stopped: the model gave 2 unusable replies in a row (malformed tool call).");
    expect(r.stderr).toContain("try a larger model");
    expect(fs.existsSync(path.join(sb.project, "hello.txt"))).toBe(false);
  });
});
