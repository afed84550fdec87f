// Issue 13 §2 end to end (headless, fake Ollama): tool-call markup that cannot be read is never
// a silent "complete". The model gets exactly one corrective message; a second bad reply in a
// row ends the run with a clear message and exit code 1.
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type Reply } from "../fakes/ollama-server.js";
import { runHeadless, type Sandbox, eachTest } from "./harness.js";

const MODEL = { name: "qwen2.5-coder:7b", contextLength: 32768 };
const say = (text: string): Reply => ({ steps: [{ text }] });
/** A Hermes call cut off in its arguments, as small models write them. */
const BROKEN = '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt",\n</tool_call>';

describe("unusable replies", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  it("a broken tool call gets one corrective message, then the run succeeds", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: [say(BROKEN), say("All done.")] });
    const r = await runHeadless(sb, ["-p", "read a.txt", "--host", fake.url, "--model", MODEL.name]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("All done.");
    expect(r.stderr).toContain("warn: The model wrote a tool call as text that could not be read; asked it to retry.");
    expect(fake.chats).toHaveLength(2);
    const corrective = fake.chats[1]!.messages.filter((m) => m.role === "user");
    expect(corrective).toHaveLength(2);
    expect(corrective[1]!.content).toContain("Your last reply could not be used: it wrote a tool call into its text");
    expect(corrective[1]!.content).toContain("read_file, list_files");
  });

  it("a call to a tool we do not have is not run and not taken as the answer", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [say('<tool_call>\n{"name": "delete_everything", "arguments": {}}\n</tool_call>'), say("Sorry.")],
    });
    const r = await runHeadless(sb, ["-p", "clean up", "--host", fake.url, "--model", MODEL.name]);
    expect(r.code).toBe(0);
    const corrective = fake.chats[1]!.messages.at(-1)!;
    expect(corrective.content).toContain('it wrote a call to "delete_everything", which is not a tool');
  });

  it("two bad replies in a row end the run with a clear message and exit code 1", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: () => say(BROKEN) });
    const r = await runHeadless(sb, ["-p", "read a.txt", "--host", fake.url, "--model", MODEL.name]);
    expect(r.code).toBe(1);
    expect(fake.chats).toHaveLength(2);
    expect(r.stderr).toContain("Stopped: the model gave 2 unusable replies in a row (malformed tool call).");
    expect(r.stdout).toBe("");
  });
});
