// Shared plumbing of the fake hosted-API servers: a loopback HTTP server that records every request
// and hands POSTs to a scripted handler.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedHttp {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, else the raw text, undefined when empty. */
  body: unknown;
}

/** A scripted non-200 answer. */
export interface HttpFailure {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RecordingServer {
  url: string;
  port: number;
  readonly requests: RecordedHttp[];
  close(): Promise<void>;
}

export type Handler = (req: RecordedHttp, res: ServerResponse) => Promise<void> | void;

export function sendFailure(res: ServerResponse, f: HttpFailure): void {
  res.writeHead(f.status, { "content-type": "application/json", ...f.headers });
  res.end(typeof f.body === "string" ? f.body : JSON.stringify(f.body));
}

export function sseHead(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
}

/** Waits ms, or less if the client goes away first (then res.destroyed is true). */
export function pause(res: ServerResponse, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    res.once("close", done);
    function done() {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    }
  });
}

async function record(req: IncomingMessage): Promise<RecordedHttp> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const raw = Buffer.concat(parts).toString("utf8");
  let body: unknown = raw === "" ? undefined : raw;
  try {
    body = JSON.parse(raw);
  } catch {
    // not JSON: keep the text
  }
  return { method: req.method ?? "GET", path: (req.url ?? "/").split("?")[0]!, headers: req.headers, body };
}

export async function startRecordingServer(handle: Handler): Promise<RecordingServer> {
  const requests: RecordedHttp[] = [];
  const server = createServer((req, res) => {
    record(req)
      .then(async (rec) => {
        requests.push(rec);
        await handle(rec, res);
      })
      .catch((err: unknown) => {
        if (!res.headersSent) sendFailure(res, { status: 500, body: { error: String(err) } });
        else res.destroy();
      });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A recording server whose answers come from a script of replies, in order; setReplies restarts it. */
export async function startScriptedServer<R>(
  initial: R[],
  handle: (req: RecordedHttp, res: ServerResponse, nextReply: () => R | undefined) => Promise<void> | void,
): Promise<RecordingServer & { setReplies(replies: R[]): void }> {
  let replies = initial;
  let next = 0;
  const server = await startRecordingServer((req, res) => handle(req, res, () => replies[next++]));
  return {
    ...server,
    setReplies(r) {
      replies = r;
      next = 0;
    },
  };
}
