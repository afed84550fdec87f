// Reading Ollama's answers over http.ts: its NDJSON chat stream (each line parsed once, malformed
// lines skipped and reported, an idle watchdog kicked on every chunk), its JSON metadata calls, and
// its error answers as the errors ollama-js throws (errors.ts knows them by that shape).
import type { HttpFetch, HttpRequestInit, HttpResponse } from "../http.js";

export interface OllamaFetchHooks {
  onHeaders?(status: number): void;
  onBytes?(): void;
  onMalformedLine?(line: string): void;
  onErrorLine?(message: string): void;
}

const NEWLINE = 0x0a;

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * Parses one NDJSON line: a JSON object, or undefined for a blank or malformed line (reported
 * through the hooks; a `{"error"}` line is reported too, and still returned).
 */
function parseLine(
  bytes: Uint8Array,
  decoder: { decode(b: Uint8Array): string },
  hooks: OllamaFetchHooks,
): object | undefined {
  const line = decoder.decode(bytes).trim();
  if (line === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    hooks.onMalformedLine?.(line);
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    hooks.onMalformedLine?.(line);
    return undefined;
  }
  const error = (value as { error?: unknown }).error;
  if (typeof error === "string") hooks.onErrorLine?.(error);
  return value;
}

/** Splits byte chunks into lines on the newline byte, which never occurs inside a multi-byte
 *  UTF-8 character, so a character split across chunks stays whole. */
function lineSplitter(): { push(chunk: Uint8Array): Uint8Array[]; end(): Uint8Array } {
  let pending: Uint8Array = new Uint8Array(0);
  return {
    push(chunk) {
      const lines: Uint8Array[] = [];
      let data = concat(pending, chunk);
      for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE)) {
        lines.push(data.subarray(0, nl));
        data = data.subarray(nl + 1);
      }
      pending = data.slice();
      return lines;
    },
    end: () => pending,
  };
}

/**
 * The JSON objects of an NDJSON body, each line decoded and parsed once: malformed lines are
 * skipped and reported, every chunk kicks onBytes.
 */
export async function* ndjsonObjects(body: AsyncIterable<Uint8Array>, hooks: OllamaFetchHooks): AsyncGenerator<object> {
  const decoder = new TextDecoder();
  const lines = lineSplitter();
  for await (const chunk of body) {
    hooks.onBytes?.();
    for (const line of lines.push(chunk)) {
      const value = parseLine(line, decoder, hooks);
      if (value) yield value;
    }
  }
  const value = parseLine(lines.end(), decoder, hooks);
  if (value) yield value;
}

/** The message of an error response: its JSON `error`, else its text, else the status line. */
async function errorMessage(res: HttpResponse): Promise<string> {
  let message = `Error ${res.status}: ${res.statusText}`.trim();
  const body = await res.text().catch(() => "");
  try {
    const parsed: unknown = JSON.parse(body);
    const error = (parsed as { error?: unknown })?.error;
    if (typeof error === "string") message = error;
    else if (typeof (error as { message?: unknown })?.message === "string")
      message = (error as { message: string }).message;
    else if (body.trim()) message = body.trim();
  } catch {
    if (body.trim()) message = body.trim();
  }
  return message;
}

/** An error response as the error ollama-js throws for it (errors.ts recognises it by shape). */
export async function responseError(res: HttpResponse): Promise<Error> {
  const err = new Error(await errorMessage(res)) as Error & { status_code: number };
  err.name = "ResponseError";
  err.status_code = res.status;
  return err;
}

/**
 * A metadata call (/api/show, /api/tags, a load request): the answer's JSON, or the error
 * ollama-js would throw for it.
 */
export async function ollamaJson(
  base: HttpFetch,
  url: string,
  init: HttpRequestInit,
  hooks: OllamaFetchHooks = {},
): Promise<unknown> {
  const res = await base(url, {
    ...init,
    headers: { "content-type": "application/json", accept: "application/json", ...init.headers },
  });
  hooks.onHeaders?.(res.status);
  if (!res.ok) throw await responseError(res);
  return res.json();
}
