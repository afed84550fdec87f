// The embedded engine's provider is kept between a session's runs (its loaded model and context sequence
// are the prefix cache) and disposed — the model's memory freed — when a run switches provider or the
// session ends. A server's provider is made per run, as before.
import { afterEach, expect, it } from "vitest";
import { createAgentSession } from "../../src/agent/session.js";
import type { AgentEvent } from "../../src/protocol/agent-event.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import { Checkpoints } from "../../src/session/checkpoints.js";
import type { Provider } from "../../src/providers/types.js";
import { scriptedProvider } from "./scripted-provider.js";
import { tempProject, testConfig } from "../tools/ctx.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

it("one embedded provider across runs; switching to a server disposes it; so does closing", async () => {
  const project = tempProject({});
  cleanups.push(project.cleanup);
  const made: { provider: string; disposed: number }[] = [];
  const events: AgentEvent[] = [];
  let wake = () => {};
  const session = createAgentSession({
    post: (e) => {
      events.push(e);
      wake();
    },
    createProvider: (config): Provider => {
      const record = { provider: config.provider, disposed: 0 };
      made.push(record);
      const p = scriptedProvider([{ text: "hi" }]);
      return {
        ...p,
        dispose: () => {
          record.disposed++;
          return Promise.resolve();
        },
      };
    },
    toolsFor: () => [],
    checkpoints: (dir) => new Checkpoints(dir),
  });
  const base: RunConfig = { ...testConfig(project.dir), interactive: true, sessionId: "s1" };
  let runId = 0;
  const run = async (provider: RunConfig["provider"]) => {
    const id = ++runId;
    session.handle({
      type: "run",
      runId: id,
      conversation: [{ role: "user", content: "go" }],
      config: { ...base, provider },
    });
    while (!events.some((e) => e.type === "done" && e.runId === id)) await new Promise<void>((r) => (wake = r));
  };

  await run("embedded");
  await run("embedded");
  expect(made.filter((m) => m.provider === "embedded")).toHaveLength(1);
  expect(made[0]!.disposed).toBe(0);

  await run("ollama");
  expect(made[0]!.disposed).toBe(1);

  await run("embedded");
  const second = made.filter((m) => m.provider === "embedded")[1]!;
  expect(second.disposed).toBe(0);
  await session.close();
  expect(second.disposed).toBe(1);
});
