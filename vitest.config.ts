import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: end-to-end tests start real terminals and workers.
    maxWorkers: 2,
    // The real engine of the engine tests, installed once before any file (tests/global-setup.ts).
    globalSetup: ["./tests/global-setup.ts"],
    // Each file's time, slowest first, after the usual report (tests/file-times.ts).
    reporters: ["default", "./tests/file-times.ts"],
  },
});
