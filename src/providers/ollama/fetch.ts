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

/** Passes whole, parseable JSON-object lines only. Splits on the newline byte, which never occurs
 *  inside a multi-byte UTF-8 character, so a character split across chunks stays whole. */
function ndjsonFilter(hooks: OllamaFetchHooks): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending: Uint8Array = new Uint8Array(0);
  const emit = (bytes: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) => {
    const line = decoder.decode(bytes).trim();
    if (line === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      hooks.onMalformedLine?.(line);
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      hooks.onMalformedLine?.(line);
      return;
    }
    const error = (value as { error?: unknown }).error;
    if (typeof error === "string") hooks.onErrorLine?.(error);
    controller.enqueue(encoder.encode(line + "\n"));
  };
  return new TransformStream({
    transform(chunk, controller) {
      hooks.onBytes?.();
      let data = concat(pending, chunk);
      for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE)) {
        emit(data.subarray(0, nl), controller);
        data = data.subarray(nl + 1);
      }
      pending = data.slice();
    },
    flush(controller) {
      emit(pending, controller);
    },
  });
}

async function asJsonError(res: Response): Promise<Response> {
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
  return new Response(JSON.stringify({ error: message }), {
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
