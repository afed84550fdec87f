import { Worker } from "node:worker_threads";
import type { AgentEvent } from "../../protocol/agent-event.js";
import type { AgentLink, WorkerCommand } from "../../protocol/worker-command.js";
import { quietHeaps } from "./heap.js";

const WORKER_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 16 };

/**
 * The main thread's handle on the agent worker. If the worker dies, the UI is told, a new
 * worker is started, and the conversation (which the UI holds) goes on with nothing lost.
 */
/**
 * The bundle keeps worker.js beside the chunk that holds this code (dist/bundle/); tsc's output
 * keeps the source layout (dist/ui/runtime/ -> dist/agent/worker.js).
 */
function workerEntry(): URL {
  const bundled = import.meta.url.includes("/bundle/");
  return new URL(bundled ? "./worker.js" : "../../agent/worker.js", import.meta.url);
}

export class AgentHandle implements AgentLink {
  private worker!: Worker;
  /** The run or compaction the worker is busy with: it ends with `done`, or with the worker. */
  private activeRun: number | null = null;
  private closing = false;
  private spawnedAt = 0;
  private heard = false;
  /** Workers in a row that died at once, without a word: a broken install, not a crash. */
  private failedStarts = 0;
  private broken: string | undefined;
  /** The MCP servers the worker should run: a new worker after a crash starts them again. */
  private mcpSync: WorkerCommand | undefined;

  constructor(
    private readonly onEvent: (e: AgentEvent) => void,
    /** The worker's entry module; tests may pass a broken one. */
    private readonly entry: URL = workerEntry(),
  ) {
    this.spawn();
  }

  private spawn() {
    // A bounded heap: a runaway tool or request cannot take the whole machine; past the limit
    // the worker dies and is restarted with nothing lost (see died()).
    quietHeaps();
    const worker = new Worker(this.entry, { resourceLimits: WORKER_LIMITS });
    this.spawnedAt = Date.now();
    this.heard = false;
    worker.on("message", (e: AgentEvent) => {
      this.heard = true;
      this.failedStarts = 0;
      if (e.type === "done" && e.runId === this.activeRun) this.activeRun = null;
      this.onEvent(e);
    });
    worker.on("error", (err) => this.died(worker, err.message));
    worker.on("exit", (code) => this.died(worker, `exit code ${code}`));
    this.worker = worker;
  }

  private died(worker: Worker, why: string) {
    if (this.closing || this.broken || worker !== this.worker) return;
    if (!this.heard && Date.now() - this.spawnedAt < 2000) this.failedStarts++;
    if (this.failedStarts >= 2) {
      // Restarting a worker that cannot even start would loop forever.
      this.broken = why;
      this.onEvent({
        type: "error",
        runId: null,
        message: `The agent worker cannot start (${why}).`,
        hint: "Your conversation is kept. Reinstall agent0 (npm install), then resume this session.",
      });
    } else {
      this.onEvent({
        type: "error",
        runId: null,
        message: `The agent worker stopped unexpectedly (${why}).`,
        hint: "A new worker was started; your conversation is kept. Send your message again to continue.",
      });
      this.spawn();
      if (this.mcpSync) this.worker.postMessage(this.mcpSync);
    }
    if (this.activeRun !== null) {
      const runId = this.activeRun;
      this.activeRun = null;
      this.onEvent({ type: "done", reason: "error", runId });
    }
  }

  send(cmd: WorkerCommand) {
    if (this.broken) {
      if (cmd.type === "run" || cmd.type === "compact") {
        this.onEvent({
          type: "error",
          runId: cmd.runId,
          message: `The agent worker cannot start (${this.broken}).`,
          hint: "Reinstall agent0 (npm install), then resume this session.",
        });
        this.onEvent({ type: "done", reason: "error", runId: cmd.runId });
      }
      return;
    }
    if (cmd.type === "run" || cmd.type === "compact") this.activeRun = cmd.runId;
    if (cmd.type === "mcp-sync") this.mcpSync = cmd;
    this.worker.postMessage(cmd);
  }

  /** For tests and fault drills: kill the worker as a crash would. */
  crashForTest() {
    this.worker.terminate().catch(() => {});
  }

  /** Asks the worker to stop (it stops its MCP servers first); terminates it if it takes too long. */
  async close(graceMs = 3000) {
    this.closing = true;
    if (this.broken) return;
    const worker = this.worker;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    // The TUI quits from its input (Ctrl+D, /quit, Ctrl+C twice): SessionEnd hooks hear it so.
    worker.postMessage({ type: "shutdown", reason: "prompt_input_exit" } satisfies WorkerCommand);
    const timer = setTimeout(() => {
      worker.terminate().catch(() => {});
    }, graceMs);
    await exited;
    clearTimeout(timer);
  }
}
