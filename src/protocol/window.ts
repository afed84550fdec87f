// The one rule for a small context window, which both threads apply: the worker sends a lean
// system prompt and tool set there, and /context shows the parts that were sent.

/** Windows up to this many tokens are small: 4k and 8k local models. */
export const SMALL_WINDOW = 8192;

export function smallWindow(numCtx: number): boolean {
  return numCtx > 0 && numCtx <= SMALL_WINDOW;
}

/** Tool families a small window leaves out unless the config names them (`smallWindowTools`). */
export const OPTIONAL_TOOL_FAMILIES = ["memory", "web", "todo", "delegate", "skills"] as const;
export type OptionalToolFamily = (typeof OPTIONAL_TOOL_FAMILIES)[number];
