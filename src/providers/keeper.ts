import type { RunConfig } from "../protocol/run-config.js";
import type { Provider } from "./types.js";

/**
 * The providers of one agent session. A server's provider is made per run (it holds nothing); the
 * embedded engine's is kept between runs — its loaded model and context sequence are the prefix cache —
 * and disposed, its memory freed, as soon as a run asks for another provider, or when the session ends.
 */
export function providerKeeper(create: (config: RunConfig) => Provider) {
  let kept: { key: string; provider: Provider } | undefined;
  const release = async (): Promise<void> => {
    const was = kept;
    kept = undefined;
    await was?.provider.dispose?.();
  };
  return {
    get(config: RunConfig): Provider {
      if (config.provider !== "embedded") {
        if (kept) release().catch(() => {});
        return create(config);
      }
      const key = config.dataDir;
      if (kept?.key === key) return kept.provider;
      release().catch(() => {});
      kept = { key, provider: create(config) };
      return kept.provider;
    },
    release,
  };
}
