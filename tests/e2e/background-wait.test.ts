// Issue 43 §3, check 3: a background `sleep 3; echo done` polled with shell_output reaches `done`
// without a stuck-loop stop (the report: three polls and agent0 stopped the run as stuck before the
// output came), and with the wait one call returns it. Headless, the built app, the fake Ollama.
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type RecordedChat, type Reply } from "../fakes/ollama-server.js";
import { runHeadless, type Sandbox, eachTest } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const START: Reply = {
  steps: [
    {
      toolCalls: [{ name: "run_shell_command", arguments: { command: "sleep 3; echo done", run_in_background: true } }],
    },
  ],
};
const lastToolResult = (chat: RecordedChat) =>
  [...chat.messages].reverse().find((m) => m.role === "tool")?.content ?? "";

describe("waiting on a background command", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );
  const run = () =>
    runHeadless(sb, ["-p", "run it and tell me", "--host", fake!.url, "--model", MODEL.name, "--yolo"], 60_000);

  it("polled every second, the same call again and again, it reaches done without a stuck stop", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      // The model polls with a one-second wait until a result holds "done", then answers.
      replies: (chat, i) =>
        i === 0
          ? START
          : /\bdone\b/.test(lastToolResult(chat))
            ? { steps: [{ text: "It printed done." }] }
            : { steps: [{ toolCalls: [{ name: "shell_output", arguments: { id: "bash_1", wait: 1 } }] }] },
    });
    const r = await run();
    expect(r.stderr).not.toContain("Stopped");
    expect(r.stdout).toContain("It printed done.");
    // At least three identical polls came before the output: today's third one stops the run.
    expect(fake.chats.length).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it("with the default wait, one call returns the output", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        START,
        { steps: [{ toolCalls: [{ name: "shell_output", arguments: { id: "bash_1" } }] }] },
        { steps: [{ text: "Read it." }] },
      ],
    });
    const r = await run();
    expect(r.stdout).toContain("Read it.");
    expect(lastToolResult(fake.chats[2]!)).toMatch(/^bash_1: (running|exit code 0)\ndone\n/);
  }, 60_000);
});
