// One GET of a JSON object an OpenAI-compatible server answers beside its /v1 routes (its window,
// its kind): undefined on any failure, a non-object or a time-out. Never throws.
export type Json = Record<string, unknown>;

export async function probeJson(
  url: string,
  opts: { apiKey?: string; fetch?: typeof fetch; signal?: AbortSignal; timeoutMs: number },
): Promise<Json | undefined> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  try {
    const res = await (opts.fetch ?? fetch)(url, {
      headers: opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {},
      signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
    });
    if (!res.ok) return undefined;
    const body: unknown = await res.json();
    return body && typeof body === "object" ? (body as Json) : undefined;
  } catch {
    return undefined;
  }
}
