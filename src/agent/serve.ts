// The agent over a port: WorkerCommands in, AgentEvents out, answered by one agent session
// (session.ts) per port. The TUI serves it in a worker thread (worker.ts), so that a busy model
// stream or a slow tool never delays a key press; a headless run serves it on its own thread
// (cli/agent-start.ts), which saves a second isolate. Nothing here is per thread: a thread may
// serve several ports.
import { createRequire } from "node:module";
import vm from "node:vm";
import type { AgentEvent } from "../protocol/agent-event.js";
import type { WorkerCommand } from "../protocol/worker-command.js";
import { createProvider } from "../providers/index.js";
import { toolsFor } from "../tools/catalog.js";
import { Checkpoints } from "../session/checkpoints.js";
import { createAgentSession, type AgentSession } from "./session.js";

/**
 * A full collection once a run (or the TUI's start-up probe) has ended. V8 grows an idle worker's
 * heap instead of collecting it, and the worker's heap has no memory reducer (ui/runtime/heap.ts),
 * so without this a long session's garbage would pile up as resident memory (bench: longSession).
 * The worker is idle then, so the few milliseconds are not felt.
 */
function collectGarbage(): void {
  gc ??= (() => {
    try {
      // node:v8 is required here, not imported: a one-shot never collects, and loading it cost ~1.5 ms.
      (createRequire(import.meta.url)("node:v8") as typeof import("node:v8")).setFlagsFromString("--expose-gc");
      return vm.runInNewContext("gc") as () => void;
    } catch {
      return () => {};
    }
  })();
  gc();
}
/** V8's gc function, made at the first collection (a new context costs a few ms a one-shot never needs). */
// eslint-disable-next-line no-restricted-syntax -- a cache: the same function for every session of the thread
let gc: (() => void) | undefined;

/** Where commands come from and events go: a worker's parentPort, or one end of a MessageChannel. */
export interface AgentPort {
  postMessage(e: AgentEvent): void;
  on(event: "message", listener: (cmd: WorkerCommand) => void): unknown;
}

/** Test hook for worker-death drills: AGENT0_FAULT=worker-exit-on:<marker> exits on a prompt holding <marker>. */
function faultDrill(cmd: WorkerCommand): void {
  const fault = process.env.AGENT0_FAULT;
  if (cmd.type !== "run" || !fault?.startsWith("worker-exit-on:")) return;
  const last = [...cmd.conversation].reverse().find((m) => m.role === "user");
  if (last?.content.includes(fault.slice("worker-exit-on:".length))) process.exit(1);
}

/** Serves a new agent session on `port`; `onStopped` runs once a shutdown command has stopped it. */
export function serveAgent(port: AgentPort, onStopped: () => void): AgentSession {
  const session = createAgentSession({
    post: (e) => port.postMessage(e),
    createProvider,
    toolsFor,
    checkpoints: (dir) => new Checkpoints(dir),
    idle: () => setImmediate(collectGarbage),
    stopped: onStopped,
  });
  port.on("message", (cmd) => {
    faultDrill(cmd);
    session.handle(cmd);
  });
  return session;
}
