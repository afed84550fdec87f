// The environment an end-to-end test gives the app that runs the embedded engine: the engine the
// suite's global set-up installed (tests/global-setup.ts, tests/engine/engine-dir.ts), short
// replies, and one compute thread — the suite keeps both cores busy, and ggml's threads on a loaded
// machine wait on each other (src/providers/embedded/provider.ts), slowing every file beside them.
import { TEST_ENGINE_DIR } from "../engine/engine-dir.js";

export function engineEnv(): Record<string, string> {
  return { AGENT0_ENGINE_DIR: TEST_ENGINE_DIR, AGENT0_ENGINE_MAX_TOKENS: "16", AGENT0_ENGINE_THREADS: "1" };
}
