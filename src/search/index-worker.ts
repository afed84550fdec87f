// The file index's thread: started by the main thread at the first `@` (cli/file-index.ts).
import { parentPort, workerData } from "node:worker_threads";
import v8 from "node:v8";
import vm from "node:vm";
import type { FileIndexRequest } from "../protocol/file-index.js";
import { FileIndex } from "./file-index.js";

// Workers run without V8's memory reducer (ui/runtime/heap.ts): this one collects its garbage
// itself once a listing is answered, as the agent's worker does after each run (agent/serve.ts).
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
v8.setFlagsFromString("--no-expose-gc");

const port = parentPort!;
const cwd = (workerData as { cwd: string }).cwd;
const index = new FileIndex(cwd, (reply) => port.postMessage(reply), undefined, gc);
port.on("message", (req: FileIndexRequest) => index.request(req));
