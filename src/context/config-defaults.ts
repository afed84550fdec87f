// Kept apart from the zod schemas so the first frame can be painted without loading zod.
export const configDefaults = {
  numCtxCap: 32768,
  tickMs: 100,
  maxSteps: 50,
  outputLimit: 32000,
  idleTimeoutMs: 120000,
} as const;
