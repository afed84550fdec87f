// The HTTP half of web_fetch and web_search: one request with a timeout that also covers the
// body, a byte cap, and every failure turned into a sentence the model can act on.

export const WEB_TIMEOUT_MS = 20_000;
export const WEB_MAX_BYTES = 2 * 1024 * 1024;
export const USER_AGENT = "Mozilla/5.0 (compatible; agent0; +https://ollama.com)";

export interface HttpRequest {
  url: string;
  signal: AbortSignal;
  timeoutMs?: number;
  maxBytes?: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /**
   * Checked before the first request and before every redirect hop (redirects are then followed
   * here, not by fetch); a sentence refuses that hop.
   */
  guard?: (url: URL) => Promise<string | undefined>;
  /** Decide from the headers whether to read the body at all (e.g. refuse binary content). */
  accept?: (contentType: string) => string | undefined;
}

export interface HttpResponse {
  status: number;
  /** Where the request ended up after redirects. */
  url: string;
  contentType: string;
  body: Buffer;
  /** The body was longer than maxBytes and was cut there. */
  truncated: boolean;
}

export type HttpOutcome = { ok: true; response: HttpResponse } | { ok: false; error: string };

/** Only http and https: file:, data: and the like could read the machine instead of the web. */
export function parseWebUrl(raw: string): { ok: true; url: URL } | { ok: false; error: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return {
      ok: false,
      error: `Error: not a valid URL: ${raw}. Give a full address such as https://example.com/page.`,
    };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, error: `Error: only http and https URLs can be fetched, not ${url.protocol}` };
  }
  return { ok: true, url };
}

/** As many redirects as fetch itself follows. */
const MAX_REDIRECTS = 20;

export async function httpRequest(req: HttpRequest): Promise<HttpOutcome> {
  const timeoutMs = req.timeoutMs ?? WEB_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([req.signal, timeout]);
  const failed = (err: unknown): HttpOutcome => ({ ok: false, error: describeFailure(err, req, timeoutMs) });
  let res: Response;
  let url = req.url;
  try {
    for (let hop = 0; ; hop++) {
      const refused = await req.guard?.(new URL(url));
      if (refused) return { ok: false, error: refused };
      res = await fetch(url, {
        method: hop === 0 ? (req.method ?? "GET") : "GET",
        headers: { "user-agent": USER_AGENT, ...req.headers },
        body: hop === 0 ? req.body : undefined,
        signal,
        redirect: req.guard ? "manual" : "follow",
      });
      const location = res.headers.get("location");
      if (!req.guard || res.status < 300 || res.status >= 400 || !location) break;
      await res.body?.cancel().catch(() => {});
      if (hop >= MAX_REDIRECTS) return { ok: false, error: `Error: ${req.url} redirected too many times.` };
      url = new URL(location, url).href;
    }
  } catch (err) {
    return failed(err);
  }
  if (res.status >= 400) {
    await res.body?.cancel().catch(() => {});
    const text = res.statusText ? ` ${res.statusText}` : "";
    return { ok: false, error: `Error: ${req.url} answered HTTP ${res.status}${text}.` };
  }
  const contentType = res.headers.get("content-type") ?? "";
  const refusal = req.accept?.(contentType);
  if (refusal) {
    await res.body?.cancel().catch(() => {});
    return { ok: false, error: refusal };
  }
  try {
    const { body, truncated } = await readCapped(res, req.maxBytes ?? WEB_MAX_BYTES);
    return { ok: true, response: { status: res.status, url: res.url || url, contentType, body, truncated } };
  } catch (err) {
    return failed(err);
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  if (!res.body) return { body: Buffer.alloc(0), truncated: false };
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { body: Buffer.concat(parts), truncated: false };
    parts.push(value);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return { body: Buffer.concat(parts).subarray(0, maxBytes), truncated: true };
    }
  }
}

function describeFailure(err: unknown, req: HttpRequest, timeoutMs: number): string {
  if (req.signal.aborted) return "Error: interrupted by the user.";
  const e = err as { name?: string; message?: string; cause?: { code?: string; hostname?: string; message?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError") {
    return `Error: ${req.url} did not answer within ${formatSeconds(timeoutMs)}.`;
  }
  const code = e.cause?.code;
  const host = safeHost(req.url);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `Error: could not resolve the host ${host} (DNS lookup failed).`;
  if (code === "ECONNREFUSED") return `Error: ${host} refused the connection.`;
  if (code === "ECONNRESET") return `Error: ${host} closed the connection.`;
  const why = e.cause?.message ?? e.message ?? String(err);
  return `Error: could not fetch ${req.url}: ${why}`;
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Text of a body in the charset its content type names (utf-8 when none or unknown). */
export function decodeBody(body: Buffer, contentType: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}
