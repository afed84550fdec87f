// A small fetch over node:http/https. Node's built-in fetch (undici) gives up when response headers take
// more than 300 s, and Ollama sends its headers only after the model has loaded and read the prompt,
// which can take longer on a CPU. This one has no header or body timeout: our own idle watchdog and
// AbortSignal decide when to stop. It aborts at any moment, before or after the headers.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const err = new Error("This operation was aborted");
  err.name = "AbortError";
  return err;
}

function toHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
    else if (value !== undefined) headers.set(key, value);
  }
  return headers;
}

export const httpFetch: typeof fetch = (input, init = {}) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const signal = init.signal ?? undefined;
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  const body = typeof init.body === "string" ? init.body : init.body == null ? undefined : String(init.body);
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;

  return new Promise<Response>((resolve, reject) => {
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
      const stream = noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
      resolve(
        new Response(stream, {
          status: res.statusCode ?? 500,
          statusText: res.statusMessage ?? "",
          headers: toHeaders(res),
        }),
      );
    });
    req.end(body);
  });
};
