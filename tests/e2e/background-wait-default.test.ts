// Issue 43 §3, check 3: a background `sleep 3; echo done` read with shell_output's default wait
// comes back in one call (polled every second: background-wait.test.ts). Headless, the built app,
// the fake Ollama.
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { lastToolResult, MODEL, run, START } from "./background-wait-setup.js";
import { type Sandbox, eachTest } from "./harness.js";

describe("waiting on a background command", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  it("with the default wait, one call returns the output", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        START,
        { steps: [{ toolCalls: [{ name: "shell_output", arguments: { id: "bash_1" } }] }] },
        { steps: [{ text: "Read it." }] },
      ],
    });
    const r = await run(sb, fake);
    expect(r.stdout).toContain("Read it.");
    expect(lastToolResult(fake.chats[2]!)).toMatch(/^bash_1: (running|exit code 0)\ndone\n/);
  }, 60_000);
});
