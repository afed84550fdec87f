// The agent worker of a headless run. Loading its code is the longest part of a one-shot's
// start, so bin/agent0.js starts it first, before the command line is even parsed; the run
// takes that worker when it is ready to send its first command.
import { AgentHandle } from "../ui/runtime/agent-handle.js";
import type { AgentEvent } from "../protocol/agent-event.js";

export interface StartedAgent {
  agent: AgentHandle;
  /** Receives the events so far, then each new one. */
  listen(handler: (e: AgentEvent) => void): void;
}

/** Starts the agent worker now; events wait for `listen`. */
export function startAgent(): StartedAgent {
  let handler: ((e: AgentEvent) => void) | undefined;
  const early: AgentEvent[] = [];
  const agent = new AgentHandle((e) => (handler ? handler(e) : early.push(e)));
  return {
    agent,
    listen(fn) {
      handler = fn;
      for (const e of early.splice(0)) fn(e);
    },
  };
}

let early: StartedAgent | undefined;

/** For bin/agent0.js, when the command line asks for a headless run. */
export function startAgentEarly(): void {
  early ??= startAgent();
}

/** The worker started early, or a new one. */
export function takeAgent(): StartedAgent {
  const started = early ?? startAgent();
  early = undefined;
  return started;
}
