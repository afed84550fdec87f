// The one rule for a small context window, which both threads apply: the worker sends a lean
// system prompt and tool set there, and /context shows the parts that were sent.

/** Windows up to this many tokens are small: 4k and 8k local models. */
export const SMALL_WINDOW = 8192;

/** Providers whose window is the one agent0 asks for (num_ctx; the engine's context size). */
const WINDOW_SET_BY_AGENT0: ReadonlySet<string> = new Set(["ollama", "embedded"]);

/** The window used when a server does not say (agent/model-info.ts): Ollama then runs with it. */
export const UNKNOWN_CONTEXT = 8192;

/**
 * Whether the session's window is small. An OpenAI-compatible or hosted server that did not say
 * its window runs with UNKNOWN_CONTEXT only as a guess, which is not known to be small (a cut
 * prompt is caught and then sets the window the server really holds). Ollama and the embedded
 * engine run with the window agent0 gives them, so theirs is never a guess.
 */
export function smallWindow(numCtx: number, provider: string = "ollama"): boolean {
  if (!WINDOW_SET_BY_AGENT0.has(provider) && numCtx === UNKNOWN_CONTEXT) return false;
  return numCtx > 0 && numCtx <= SMALL_WINDOW;
}

/** Tool families a small window leaves out unless the config names them (`smallWindowTools`). */
export const OPTIONAL_TOOL_FAMILIES = ["memory", "web", "todo", "delegate", "skills"] as const;
export type OptionalToolFamily = (typeof OPTIONAL_TOOL_FAMILIES)[number];
