// The fetch that the ollama client is given. It adds what ollama-js lacks:
// - our AbortSignal on every request (ollama-js can only abort a stream after its headers arrived,
//   and cannot abort non-streaming calls at all);
// - activity hooks for the idle watchdog (headers, every body chunk);
// - malformed NDJSON lines are dropped here and reported through a hook, because ollama-js would
//   console.warn them onto the screen the TUI owns;
// - error bodies are rewritten as JSON `{"error"}`, because ollama-js console.logs while reading a
//   non-JSON error body; a mid-stream `{"error"}` line is reported so the provider can name it.

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

/** Passes whole, parseable JSON-object lines only (for ollama-js, which parses them again). */
function ndjsonFilter(hooks: OllamaFetchHooks): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const lines = lineSplitter();
  const pass = (bytes: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) => {
    const value = parseLine(bytes, decoder, hooks);
    if (value) controller.enqueue(encoder.encode(JSON.stringify(value) + "\n"));
  };
  return new TransformStream({
    transform(chunk, controller) {
      hooks.onBytes?.();
      for (const line of lines.push(chunk)) pass(line, controller);
    },
    flush(controller) {
      pass(lines.end(), controller);
    },
  });
}

/**
 * The JSON objects of an NDJSON body, each line decoded and parsed once. Same rules as the
 * filter ollama-js gets: malformed lines are skipped and reported, every chunk kicks onBytes.
 */
export async function* ndjsonObjects(
  body: ReadableStream<Uint8Array>,
  hooks: OllamaFetchHooks,
): AsyncGenerator<object> {
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
async function errorMessage(res: Response): Promise<string> {
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
export async function responseError(res: Response): Promise<Error> {
  const err = new Error(await errorMessage(res)) as Error & { status_code: number };
  err.name = "ResponseError";
  err.status_code = res.status;
  return err;
}

async function asJsonError(res: Response): Promise<Response> {
  return new Response(JSON.stringify({ error: await errorMessage(res) }), {
    status: res.status,
    statusText: res.statusText,
    headers: { "content-type": "application/json" },
  });
}

export function createOllamaFetch(base: typeof fetch, signal: AbortSignal, hooks: OllamaFetchHooks = {}): typeof fetch {
  return async (input, init = {}) => {
    const signals = init.signal ? [signal, init.signal] : [signal];
    const res = await base(input, { ...init, signal: signals.length === 1 ? signal : AbortSignal.any(signals) });
    hooks.onHeaders?.(res.status);
    if (!res.ok) return asJsonError(res);
    if (!res.body) return res;
    return new Response(res.body.pipeThrough(ndjsonFilter(hooks)), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}
