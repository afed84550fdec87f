// The file index's thread: started by the main thread at the first `@` (cli/file-index.ts).
import { parentPort, workerData } from "node:worker_threads";
import type { FileIndexRequest } from "../protocol/file-index.js";
import { FileIndex } from "./file-index.js";

const port = parentPort!;
const index = new FileIndex((workerData as { cwd: string }).cwd, (reply) => port.postMessage(reply));
port.on("message", (req: FileIndexRequest) => index.request(req));
