// Failures of an Ollama request, turned into ProviderErrors the user can act on.
import { errorText, isConnectFailure, networkCode, refusesConstraint } from "../errors.js";
import type { ProviderError } from "../types.js";
import { withOverflowHint } from "../overflow.js";

export interface OllamaFailureContext {
  host: string;
  model?: string;
  /** The caller's signal fired. */
  userAborted: boolean;
  /** The idle watchdog fired, and after how long. */
  timedOutAfterMs?: number;
  /** Response headers had arrived. */
  headersSeen: boolean;
  /** Text of a mid-stream `{"error"}` line. */
  serverErrorLine?: string;
}

export const unreachable = (host: string): ProviderError => ({
  kind: "unreachable",
  message: `Cannot reach Ollama at ${host}`,
  hint: "Start it with `ollama serve` (or set --host / OLLAMA_HOST).",
});

export const modelNotFound = (model: string, host: string): ProviderError => ({
  kind: "model-not-found",
  message: `Model '${model}' is not installed on ${host}`,
  hint: `Run \`ollama pull ${model}\``,
  status: 404,
});

/** ollama-js's ResponseError is not exported; recognise it by shape. */
function responseError(err: unknown): { status: number; text: string } | undefined {
  if (err instanceof Error && err.name === "ResponseError") {
    const status = (err as Error & { status_code?: unknown }).status_code;
    if (typeof status === "number") return { status, text: err.message };
  }
  return undefined;
}

function fromStatus(status: number, text: string, ctx: OllamaFailureContext): ProviderError {
  if (status === 404 && /not found/i.test(text) && ctx.model !== undefined) return modelNotFound(ctx.model, ctx.host);
  if (status === 400 && /does not support tools/i.test(text)) {
    return { kind: "no-tools", message: text, hint: "This model cannot call tools natively.", status };
  }
  if (refusesConstraint(status, text)) return { kind: "no-constraint", message: text, status };
  if (status === 401 || status === 403)
    return { kind: "auth", message: `Ollama at ${ctx.host} refused the request: ${text}`, status };
  if (status === 429) return { kind: "rate-limit", message: `Ollama is busy: ${text}`, status };
  return withOverflowHint({ kind: "server", message: `Ollama answered ${status}: ${text}`, status });
}

export function ollamaFailure(err: unknown, ctx: OllamaFailureContext): ProviderError {
  if (ctx.userAborted) return { kind: "aborted", message: "The request was stopped." };
  if (ctx.timedOutAfterMs !== undefined) {
    const secs = Math.round(ctx.timedOutAfterMs / 1000);
    return ctx.headersSeen
      ? {
          kind: "timeout",
          message: `Ollama sent nothing for ${secs} s in the middle of the answer, so the request was stopped.`,
          hint: "Try again.",
        }
      : {
          kind: "timeout",
          message: `Ollama did not start answering within ${secs} s (the model may still be loading), so the request was stopped.`,
          hint: "Try again, or raise the idle timeout for slow machines.",
        };
  }
  if (ctx.serverErrorLine !== undefined) return { kind: "stream", message: ctx.serverErrorLine };
  const status = responseError(err);
  if (status) return fromStatus(status.status, status.text, ctx);
  if (!ctx.headersSeen) {
    // Connected, then dropped: the server is there, so "start it" would be the wrong advice.
    const code = networkCode(err);
    if (
      code === "ECONNRESET" ||
      code === "EPIPE" ||
      /socket hang up/i.test(errorText((err as { cause?: unknown })?.cause ?? err))
    ) {
      return {
        kind: "stream",
        message: `Ollama at ${ctx.host} closed the connection before answering`,
        hint: "It may have stopped while loading the model; check the `ollama serve` log and try again.",
      };
    }
    if (isConnectFailure(err) || errorText(err) === "fetch failed") return unreachable(ctx.host);
    return { ...unreachable(ctx.host), message: `Cannot reach Ollama at ${ctx.host}: ${errorText(err)}` };
  }
  return { kind: "stream", message: "the connection closed before the answer finished" };
}
