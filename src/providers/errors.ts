import type { ProviderError, ProviderErrorKind } from "./types.js";

/** The Error that listModels()/modelInfo() throw: an Error carrying the ProviderError fields. */
export class ProviderFailure extends Error implements ProviderError {
  readonly kind: ProviderErrorKind;
  readonly hint?: string;
  readonly status?: number;

  constructor(error: ProviderError) {
    super(error.message);
    this.name = "ProviderFailure";
    this.kind = error.kind;
    if (error.hint !== undefined) this.hint = error.hint;
    if (error.status !== undefined) this.status = error.status;
  }

  toJSON(): ProviderError {
    return plainError(this);
  }
}

export function isProviderError(x: unknown): x is ProviderError {
  return (
    typeof x === "object" &&
    x !== null &&
    typeof (x as ProviderError).kind === "string" &&
    typeof (x as ProviderError).message === "string"
  );
}

/** A structured-clone-safe copy (no undefined fields, no prototype). */
export function plainError(e: ProviderError): ProviderError {
  const out: ProviderError = { kind: e.kind, message: e.message };
  if (e.hint !== undefined) out.hint = e.hint;
  if (e.status !== undefined) out.status = e.status;
  return out;
}

/** The error code of a Node network failure, looking through fetch's `cause` chain. */
export function networkCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const CONNECT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export function isConnectFailure(err: unknown): boolean {
  const code = networkCode(err);
  return code !== undefined && CONNECT_CODES.has(code);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * A 400 that refuses the reply constraint names the field agent0 sent it in: llama.cpp's server
 * "Failed to initialize samplers: failed to parse grammar" (lidge-jun/opencodex#2135) or a schema
 * it cannot convert (ggml-org/llama.cpp#19051, #19349), Ollama before structured outputs "invalid
 * format" (ollama/ollama#7707), vLLM without a guided-decoding backend naming response_format.
 */
export function refusesConstraint(status: number | undefined, detail: string): boolean {
  return status === 400 && /\b(format|response_format|json_schema|grammar)\b/i.test(detail);
}
