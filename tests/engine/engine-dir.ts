// The real engine for tests: installed once through agent0's own installer into a cache kept between
// runs ($AGENT0_ENGINE_DIR, else .engine-cache/ in the checkout, gitignored). With the cache present the
// engine tests need no network. A clean CI checkout has none: the tests' global set-up
// (tests/global-setup.ts) runs `npm install` of node-llama-cpp with this platform's build (~80 MB) from
// the npm registry, the one network the tests use, as `npm ci` itself does — CI should keep
// .engine-cache/ (or $AGENT0_ENGINE_DIR) in its cache, keyed on ENGINE_VERSION, so it is fetched once.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { engineInstalled, installEngine } from "../../src/providers/embedded/engine.js";

export const TEST_ENGINE_DIR =
  process.env.AGENT0_ENGINE_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", ".engine-cache");

export async function ensureTestEngine(): Promise<string> {
  if (!engineInstalled(TEST_ENGINE_DIR)) {
    const r = await installEngine(TEST_ENGINE_DIR);
    if (!r.ok) throw new Error(r.message);
  }
  return TEST_ENGINE_DIR;
}
