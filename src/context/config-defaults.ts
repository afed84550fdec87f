// Kept apart from the zod schemas so the first frame can be painted without loading zod.
export const configDefaults = {
  numCtxCap: 32768,
  tickMs: 100,
  maxSteps: 50,
  outputLimit: 32000,
  idleTimeoutMs: 120000,
} as const;

/**
 * Ollama's keep_alive, sent with every request of a session and its warm-up: a request without it
 * re-arms the server's own 5 minutes (OLLAMA_KEEP_ALIVE), so the model would unload in a pause.
 */
export const DEFAULT_KEEP_ALIVE = "30m";

/** No model has a longer context than this (2^24 tokens): a larger num_ctx or cap is a typo. */
export const MAX_CONTEXT_TOKENS = 16_777_216;
