// The file index's thread: started by the main thread at the first `@` (cli/file-index.ts).
import { parentPort, workerData } from "node:worker_threads";
import type { FileIndexRequest } from "../protocol/file-index.js";
import { FileIndex } from "./file-index.js";
import { collectGarbage } from "../agent/collect-garbage.js";

const port = parentPort!;
const cwd = (workerData as { cwd: string }).cwd;
const index = new FileIndex(cwd, (reply) => port.postMessage(reply), undefined, collectGarbage);
port.on("message", (req: FileIndexRequest) => index.request(req));
