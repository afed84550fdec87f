// Worker entry: the agent brain runs here so that a busy model stream or a slow tool
// never delays a key press on the UI thread.
import { parentPort } from "node:worker_threads";
import type { AgentEvent, PermissionDecision, RunConfig, WorkerCommand } from "./events.js";
import { assertNever } from "./events.js";
import { runAgent } from "./loop.js";
import { createProvider } from "./providers/index.js";
import { toolsFor } from "./tools/all.js";
import { ensureModelInfo } from "./model-info.js";
import { compactIfNeeded } from "./compaction-run.js";

const port = parentPort;
if (!port) throw new Error("worker.ts must run inside a worker thread");

const emit = (e: AgentEvent) => port.postMessage(e);
const pending = new Map<string, (d: PermissionDecision) => void>();
let controller: AbortController | undefined;

async function run(cmd: Extract<WorkerCommand, { type: "run" }>) {
  controller?.abort();
  const ctl = new AbortController();
  controller = ctl;
  const config: RunConfig = cmd.config;
  try {
    const provider = createProvider(config);
    const result = await runAgent(cmd.conversation, config, {
      provider,
      tools: await toolsFor(config),
      emit,
      signal: ctl.signal,
      askUser: (req) =>
        new Promise<PermissionDecision>((resolve) => {
          if (ctl.signal.aborted) return resolve("deny");
          pending.set(req.id, resolve);
          ctl.signal.addEventListener("abort", () => resolve("deny"), { once: true });
          emit({ type: "permission-request", id: req.id, tool: req.tool, args: req.args, preview: req.preview });
        }),
    });
    emit({ type: "done", reason: result.reason });
  } catch (err) {
    emit({ type: "error", message: `Internal error: ${(err as Error).stack ?? String(err)}` });
    emit({ type: "done", reason: "error" });
  } finally {
    if (controller === ctl) controller = undefined;
    pending.clear();
  }
}

async function probe(config: RunConfig) {
  const ctl = new AbortController();
  const info = await ensureModelInfo(createProvider(config), config, ctl.signal, emit);
  if (!info.ok) emit({ type: "error", message: info.message, hint: info.hint });
}

async function compact(cmd: Extract<WorkerCommand, { type: "compact" }>) {
  const ctl = new AbortController();
  controller = ctl;
  try {
    const out = await compactIfNeeded(createProvider(cmd.config), cmd.conversation, cmd.config, ctl.signal, emit, true);
    if (!out) emit({ type: "notice", level: "info", text: "Nothing to compact yet." });
  } finally {
    emit({ type: "done", reason: ctl.signal.aborted ? "interrupted" : "complete" });
    if (controller === ctl) controller = undefined;
  }
}

port.on("message", (cmd: WorkerCommand) => {
  switch (cmd.type) {
    case "run":
      void run(cmd);
      break;
    case "cancel":
      controller?.abort();
      break;
    case "permission-reply": {
      const resolve = pending.get(cmd.id);
      pending.delete(cmd.id);
      resolve?.(cmd.decision);
      break;
    }
    case "probe":
      void probe(cmd.config);
      break;
    case "compact":
      void compact(cmd);
      break;
    case "shutdown":
      controller?.abort();
      process.exit(0);
      break;
    default:
      assertNever(cmd);
  }
});
