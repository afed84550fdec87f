// Issue 43 §3, check 3: a background `sleep 3; echo done` polled with shell_output reaches `done`
// without a stuck-loop stop (the report: three polls and agent0 stopped the run as stuck before the
// output came). Headless, the built app, the fake Ollama. With the wait, one call returns it:
// background-wait-default.test.ts.
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
    const r = await run(sb, fake);
    expect(r.stderr).not.toContain("Stopped");
    expect(r.stdout).toContain("It printed done.");
    // At least three identical polls came before the output: today's third one stops the run.
    expect(fake.chats.length).toBeGreaterThanOrEqual(5);
  }, 60_000);
});
