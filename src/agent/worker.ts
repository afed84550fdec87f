// Worker entry of the TUI: the agent runs in its own thread, so that a busy model stream or a
// slow tool never delays a key press on the UI thread.
import { parentPort } from "node:worker_threads";
import { serveAgent } from "./serve.js";

if (!parentPort) throw new Error("worker.ts must run inside a worker thread");
serveAgent(parentPort, () => process.exit(0));
