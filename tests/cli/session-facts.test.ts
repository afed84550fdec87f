// One host for a session: the facts a run reports that later runs must carry — the model's
// window and capabilities, the tool protocol the session moved to, the user's "always" — are kept
// by one rule (protocol/session-facts.ts) whichever driver runs the session. The TUI (update)
// and a hosted session (cli/hosted-session.ts: `-p`, ACP, `mcp serve`) are fed the same events
// by a run, then start a second run: the configs they stamp it with carry the same facts.
// Before, a hosted session kept only the model's name (so each prompt asked /api/show again)
// and kept "always" by a rule of its own, from the request rather than the approver's answer.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent, RunEvent } from "../../src/protocol/agent-event.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import type { WorkerCommand } from "../../src/protocol/worker-command.js";
import { HostedSession } from "../../src/cli/hosted-session.js";
import type { Logger } from "../../src/session/log.js";
import { agent, feed, newModel, typeText, key, testConfig } from "../ui/helpers.js";

/** What a run tells of the session: Ollama's /api/show of a model without tools or thinking, a cut window, an "always". */
const RUN_EVENTS: RunEvent[] = [
  {
    type: "model-info",
    model: "gemma3:4b",
    contextLength: 131072,
    numCtx: 32768,
    capabilities: ["completion", "vision"],
  },
  { type: "usage", promptTokens: 900, completionTokens: 10, contextWindow: 16384, toolTokens: 0 },
  { type: "allowed", key: "run_shell_command(git status)" },
  { type: "message", message: { role: "assistant", content: "Done." } },
];

const facts = (c: RunConfig) => ({
  model: c.model,
  numCtx: c.numCtx,
  toolProtocol: c.toolProtocol,
  think: c.think,
  seesImages: c.seesImages,
  allowedTools: c.allowedTools,
});

const EXPECTED = {
  model: "gemma3:4b",
  numCtx: 16384,
  toolProtocol: "json",
  think: undefined,
  seesImages: true,
  allowedTools: ["run_shell_command(git status)"],
};

const START: Partial<RunConfig> = { model: "", numCtx: 0, think: "on", toolProtocol: "native", allowedTools: [] };

function tuiSecondRun(events: RunEvent[] = RUN_EVENTS): RunConfig {
  let model = newModel();
  model = { ...model, config: testConfig(START) };
  const send = (text: string) => feed(model, ...typeText(text), key("enter"));
  let step = send("first");
  model = step.model;
  step = feed(model, ...events.map(agent), agent({ type: "done", reason: "complete" }));
  model = step.model;
  step = send("second");
  const run = step.cmds.find((c) => c.type === "worker" && c.command.type === "run");
  if (run?.type !== "worker" || run.command.type !== "run") throw new Error("the TUI started no run");
  return run.command.config;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const quietLogger: Logger = { path: "", event() {}, error() {}, info() {}, flush() {}, close() {} };

async function hostedSecondRun(first: RunEvent[] = RUN_EVENTS): Promise<RunConfig> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-facts-"));
  dirs.push(dir);
  const runs: RunConfig[] = [];
  const session = new HostedSession({
    config: testConfig({ ...START, cwd: dir }),
    dir,
    logger: quietLogger,
    openAgent: (onEvent) => ({
      send(cmd: WorkerCommand) {
        if (cmd.type !== "run") return;
        runs.push(cmd.config);
        const events: RunEvent[] = runs.length === 1 ? first : [];
        setImmediate(() => {
          for (const e of [...events, { type: "done", reason: "complete" } as const])
            onEvent({ ...e, runId: cmd.runId } as AgentEvent);
        });
      },
      close: () => Promise.resolve(),
    }),
  });
  await session.prompt({ role: "user", content: "first" }, () => {});
  await session.prompt({ role: "user", content: "second" }, () => {});
  await session.close();
  return runs[1]!;
}

describe("the facts a session keeps, whichever driver runs it", () => {
  it("the TUI stamps its next run with them", () => {
    expect(facts(tuiSecondRun())).toEqual(EXPECTED);
  });

  it("a hosted session (-p, ACP, mcp serve) stamps its next run with the same", async () => {
    expect(facts(await hostedSecondRun())).toEqual(EXPECTED);
  });
});

describe("a run that reported no token counts", () => {
  // A server may send no `usage` at all (an OpenAI-compatible stream without stream_options, issue 40
  // §2): then the lookup's own answer is all the session has of the window, and the next run must
  // carry it, or it asks the server about the model again (agent/model-info.ts asks while numCtx is 0).
  const NO_USAGE = RUN_EVENTS.filter((e) => e.type !== "usage");

  it("the TUI's next run still carries the lookup's window", () => {
    expect(tuiSecondRun(NO_USAGE).numCtx).toBe(32768);
  });

  it("a hosted session's next run still carries the lookup's window", async () => {
    expect((await hostedSecondRun(NO_USAGE)).numCtx).toBe(32768);
  });
});
