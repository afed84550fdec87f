// The agent of a headless run, served on the main thread. A one-shot has no screen to keep
// responsive, so a worker thread would only add a second isolate to boot (~30 ms and ~40 ms of
// CPU) and a second copy of zod and the rest to compile. It is started first: by start/one-shot.ts
// (its code already loaded), or by bin/agent0.js before main.ts when only commander can read the
// line (its code then loads beside main's); the run takes it when it sends its first command.
import type { AgentEvent } from "../protocol/agent-event.js";
import type { AgentLink, WorkerCommand } from "../protocol/worker-command.js";

export interface StartedAgent {
  agent: AgentLink;
  /** Receives the events so far, then each new one. */
  listen(handler: (e: AgentEvent) => void): void;
}

/**
 * Starts the agent on this thread. Commands and events cross a MessageChannel, as they would a
 * worker's port: each is a copy, delivered on a later turn of the event loop, so neither side
 * ever holds an object the other one changes.
 */
export function startAgent(load = () => import("../agent/serve.js")): StartedAgent {
  let handler: ((e: AgentEvent) => void) | undefined;
  const early: AgentEvent[] = [];
  const deliver = (e: AgentEvent) => (handler ? handler(e) : early.push(e));
  // The global MessageChannel is node's own (ports with .on), without loading node:worker_threads (~2 ms).
  const { port1, port2 } = new MessageChannel();
  port1.on("message", deliver);
  let stopped!: () => void;
  const closed = new Promise<void>((resolve) => (stopped = resolve));
  const finished = () => {
    port1.close();
    stopped();
  };
  /** Why the agent's code could not be loaded (a broken install). */
  let broken: string | undefined;
  const runs: number[] = [];
  const served = load().then(
    ({ serveAgent }) => serveAgent(port2, finished),
    (err: Error) => {
      broken = err.message;
      for (const runId of runs) refuse(runId);
      finished();
    },
  );
  function refuse(runId: number) {
    deliver({
      type: "error",
      runId,
      message: `The agent cannot start (${broken}).`,
      hint: "Reinstall agent0 (npm install), then resume this session.",
    });
    deliver({ type: "done", reason: "error", runId });
  }
  return {
    agent: {
      send(cmd) {
        const runId = cmd.type === "run" || cmd.type === "compact" ? cmd.runId : undefined;
        if (broken !== undefined) {
          if (runId !== undefined) refuse(runId);
          return;
        }
        if (runId !== undefined) runs.push(runId);
        port1.postMessage(cmd);
      },
      async close() {
        await served;
        if (broken === undefined) port1.postMessage({ type: "shutdown" } satisfies WorkerCommand);
        await closed;
      },
    },
    listen(fn) {
      handler = fn;
      for (const e of early.splice(0)) fn(e);
    },
  };
}

// eslint-disable-next-line no-restricted-syntax -- the process's one early-started worker, handed from boot to the run
let early: StartedAgent | undefined;

/** For bin/agent0.js and start/one-shot.ts, when the command line asks for a headless run. */
export function startAgentEarly(load?: Parameters<typeof startAgent>[0]): void {
  early ??= startAgent(load);
}

/** The agent started early, or a new one. */
export function takeAgent(): StartedAgent {
  const started = early ?? startAgent();
  early = undefined;
  return started;
}
