// A small fetch over node:http/https. Node's built-in fetch (undici) gives up when response headers take
// more than 300 s, and Ollama sends its headers only after the model has loaded and read the prompt,
// which can take longer on a CPU. This one has no header or body timeout: our own idle watchdog and
// AbortSignal decide when to stop. It aborts at any moment, before or after the headers.
//
// It answers with the part of a Response the Ollama provider reads, made without fetch's classes:
// touching Headers or Response loads undici, ~50 ms before a worker's first request. The body is
// the response stream itself, read with for-await: a web ReadableStream around it (Readable.toWeb)
// would load node's web streams (~4 ms at the first request) and add a layer to every chunk.
import { request as httpRequest, type IncomingMessage } from "node:http";

/** What a request may carry (a subset of fetch's RequestInit). */
export interface HttpRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** What is read of an answer; fetch's Response has all of it, so `fetch` itself is an HttpFetch. */
export interface HttpResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  /** Read with for-await (fetch's ReadableStream is one too). */
  readonly body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

export type HttpFetch = (url: string, init?: HttpRequestInit) => Promise<HttpResponse>;

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const err = new Error("This operation was aborted");
  err.name = "AbortError";
  return err;
}

class NodeResponse implements HttpResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;

  constructor(
    res: IncomingMessage,
    readonly body: AsyncIterable<Uint8Array> | null,
  ) {
    this.status = res.statusCode ?? 500;
    this.statusText = res.statusMessage ?? "";
    this.ok = this.status >= 200 && this.status <= 299;
  }

  async text(): Promise<string> {
    if (!this.body) return "";
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.body) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

export const httpFetch: HttpFetch = async (input, init = {}) => {
  const url = new URL(input);
  const signal = init.signal;
  const headers: Record<string, string> = { ...init.headers };
  const body = init.body;
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  // node:https (and tls under it, a few ms to load) only for a server that speaks it: a local
  // Ollama, the usual one, speaks http.
  const send = url.protocol === "https:" ? (await import("node:https")).request : httpRequest;

  return new Promise<HttpResponse>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const req = send(url, { method: init.method ?? "GET", headers });
    const onAbort = () => req.destroy(abortError(signal as AbortSignal));
    signal?.addEventListener("abort", onAbort, { once: true });
    req.on("error", (err) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new TypeError("fetch failed", { cause: err }));
    });
    req.on("response", (res) => {
      res.on("close", () => signal?.removeEventListener("abort", onAbort));
      const noBody = res.statusCode === 204 || res.statusCode === 304 || init.method === "HEAD";
      resolve(new NodeResponse(res, noBody ? null : res));
    });
    req.end(body);
  });
};
