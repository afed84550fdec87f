import { Worker } from "node:worker_threads";
import type { AgentEvent, WorkerCommand } from "./events.js";

const WORKER_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 16 };

/**
 * The main thread's handle on the agent worker. If the worker dies, the UI is told, a new
 * worker is started, and the conversation (which the UI holds) goes on with nothing lost.
 */
export class AgentHandle {
  private worker!: Worker;
  private running = false;
  private closing = false;

  constructor(private readonly onEvent: (e: AgentEvent) => void) {
    this.spawn();
  }

  private spawn() {
    // A bounded heap: a runaway tool or request cannot take the whole machine; past the limit
    // the worker dies and is restarted with nothing lost (see died()).
    const worker = new Worker(new URL("./worker.js", import.meta.url), { resourceLimits: WORKER_LIMITS });
    worker.on("message", (e: AgentEvent) => {
      if (e.type === "done") this.running = false;
      this.onEvent(e);
    });
    worker.on("error", (err) => this.died(worker, err.message));
    worker.on("exit", (code) => this.died(worker, `exit code ${code}`));
    this.worker = worker;
  }

  private died(worker: Worker, why: string) {
    if (this.closing || worker !== this.worker) return;
    this.onEvent({
      type: "error",
      message: `The agent worker stopped unexpectedly (${why}).`,
      hint: "A new worker was started; your conversation is kept. Send your message again to continue.",
    });
    this.spawn();
    if (this.running) {
      this.running = false;
      this.onEvent({ type: "done", reason: "error" });
    }
  }

  send(cmd: WorkerCommand) {
    if (cmd.type === "run" || cmd.type === "compact") this.running = true;
    this.worker.postMessage(cmd);
  }

  /** For tests and fault drills: kill the worker as a crash would. */
  crashForTest() {
    void this.worker.terminate();
  }

  /** Asks the worker to stop (it stops its MCP servers first); terminates it if it takes too long. */
  async close(graceMs = 3000) {
    this.closing = true;
    const worker = this.worker;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage({ type: "shutdown" } satisfies WorkerCommand);
    const timer = setTimeout(() => void worker.terminate(), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
