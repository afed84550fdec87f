// The environment an end-to-end test gives the app that runs the embedded engine: the engine the
// suite installed once (tests/global-setup.ts), short replies, and one compute thread — the suite
// keeps both cores busy, and ggml's threads on a loaded machine wait on each other
// (src/providers/embedded/provider.ts), slowing every file that runs beside them.
export function engineEnv(engine: string): Record<string, string> {
  return { AGENT0_ENGINE_DIR: engine, AGENT0_ENGINE_MAX_TOKENS: "16", AGENT0_ENGINE_THREADS: "1" };
}
