// Kept apart from the zod schemas so the first frame can be painted without loading zod.
export const configDefaults = {
  numCtxCap: 32768,
  tickMs: 100,
  maxSteps: 50,
  outputLimit: 32000,
  idleTimeoutMs: 120000,
} as const;

/** No model has a longer context than this (2^24 tokens): a larger num_ctx or cap is a typo. */
export const MAX_CONTEXT_TOKENS = 16_777_216;
