// Issue 24 end to end (headless, fake Ollama): calls a small model writes as text, read by their
// parts. The lead-in reply runs; markup of a family nobody listed that names a known tool but
// cannot be read gets one corrective message and the retry's call runs; an explanation holding
// an example call runs nothing and is the answer.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type Reply } from "../fakes/ollama-server.js";
import { runHeadless, type Sandbox, eachTest } from "./harness.js";

const MODEL = { name: "qwen2.5-coder:3b", contextLength: 32768 };
const say = (text: string): Reply => ({ steps: [{ text }] });
const run = (sb: Sandbox, fake: FakeOllama, prompt: string) =>
  runHeadless(sb, ["-p", prompt, "--host", fake.url, "--model", MODEL.name, "--yolo"]);

describe("calls written as text, end to end", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  it("the lead-in reply runs: one sentence, then a fenced JSON call", async () => {
    // The new user's report in issue 24: this ran nothing and exited 0.
    const leadIn =
      "I'll create the file now.\n\n```json\n" +
      '{"name": "write_file", "arguments": {"path": "notes.txt", "content": "first line\\n"}}\n```';
    fake = await startFakeOllama({ models: [MODEL], replies: [say(leadIn), say("Created notes.txt.")] });
    const r = await run(sb, fake, "create notes.txt");
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(sb.project, "notes.txt"), "utf8")).toBe("first line\n");
    expect(r.stdout.trim()).toBe("Created notes.txt.");
    const [assistant] = fake.chats[1]!.messages.slice(-2);
    expect(assistant!.tool_calls?.[0]?.function.name).toBe("write_file");
  });

  it("a marker no scanner names is read when its parts are known", async () => {
    const unnamed = '<|my_call|>{"name": "read_file", "arguments": {"path": "a.txt"}}<|my_call_end|>';
    fs.writeFileSync(path.join(sb.project, "a.txt"), "alpha\n");
    fake = await startFakeOllama({ models: [MODEL], replies: [say(unnamed), say("It says alpha.")] });
    const r = await run(sb, fake, "what is in a.txt?");
    expect(r.code).toBe(0);
    const result = fake.chats[1]!.messages.at(-1)!;
    expect(result.role).toBe("tool");
    expect(result.content).toContain("alpha");
  });

  it("unknown-family markup naming a known tool gets one corrective message; the retry's call runs", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "alpha\n");
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        say("Reading it: @@invoke read_file {path: a.txt"),
        say('<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}</tool_call>'),
        say("It says alpha."),
      ],
    });
    const r = await run(sb, fake, "what is in a.txt?");
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("It says alpha.");
    expect(fake.chats).toHaveLength(3);
    const corrective = fake.chats[1]!.messages.at(-1)!;
    expect(corrective.role).toBe("user");
    expect(corrective.content).toContain("Your last reply could not be used: it wrote a tool call into its text");
    expect(corrective.content).toContain("read_file with arguments");
    expect(fake.chats[2]!.messages.at(-1)!.content).toContain("alpha");
  });

  it("an explanation holding an example call runs nothing and is the answer", async () => {
    const explanation =
      "Qwen models write their calls like this, for example:\n<tool_call>\n" +
      '{"name": "write_file", "arguments": {"path": "example.txt", "content": "x"}}\n</tool_call>\n' +
      "The server parses the tag and hands the call to the client, which runs it.";
    fake = await startFakeOllama({ models: [MODEL], replies: [say(explanation)] });
    const r = await run(sb, fake, "how does qwen call tools?");
    expect(r.code).toBe(0);
    expect(fake.chats).toHaveLength(1);
    expect(fs.existsSync(path.join(sb.project, "example.txt"))).toBe(false);
    expect(r.stdout).toContain("for example");
    expect(r.stdout).toContain("<tool_call>");
  });
});
