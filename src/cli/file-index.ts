// The main thread's handle on the file index's thread (src/search/index-worker.ts), started at
// the first `@`. Queries go over as they are typed; each answer goes to the listener of the
// newest query. The thread is unref'd (it never keeps the process alive) and ended at close.
import { Worker } from "node:worker_threads";
import type { FileIndexReply, FileIndexRequest, FileMatches } from "../protocol/file-index.js";

/** Paths the @ menu is given per answer: more than it shows, so typing on can re-rank them at once. */
export const FILE_MATCH_LIMIT = 50;

/** The bundle keeps the worker beside this chunk (dist/bundle/); tsc's output keeps the source layout. */
function indexWorkerEntry(): URL {
  const bundled = import.meta.url.includes("/bundle/");
  return new URL(bundled ? "./file-index-worker.js" : "../search/index-worker.js", import.meta.url);
}

export class FileIndexClient {
  private worker: Worker | undefined;
  private listener: ((m: FileMatches) => void) | undefined;
  private failed = false;

  constructor(private readonly cwd: () => string) {}

  match(query: string, refresh: boolean, onMatches: (m: FileMatches) => void): void {
    this.listener = onMatches;
    const worker = this.start();
    if (!worker) {
      onMatches({ type: "matches", query, paths: [], total: 0, indexed: 0, building: false, ranking: false });
      return;
    }
    const req: FileIndexRequest = { type: "query", query, limit: FILE_MATCH_LIMIT, refresh };
    worker.postMessage(req);
  }

  close(): void {
    // Ending a thread cannot fail in a way that matters at quit.
    this.worker?.terminate().then(
      () => undefined,
      () => undefined,
    );
    this.worker = undefined;
  }

  private start(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    // A small young generation: listing makes short-lived chunks by the million, and the table
    // itself lives outside the heap (typed arrays); a runaway listing cannot take the machine.
    const worker = new Worker(indexWorkerEntry(), {
      workerData: { cwd: this.cwd() },
      resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 512 },
    });
    worker.unref();
    worker.on("message", (reply: FileIndexReply) => this.listener?.(reply));
    // @ completion is a convenience: without its thread the menu lists only other sources.
    worker.on("error", () => {
      this.failed = true;
      this.worker = undefined;
    });
    this.worker = worker;
    return worker;
  }
}
