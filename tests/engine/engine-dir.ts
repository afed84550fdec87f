// The real engine for tests: installed once through agent0's own installer into a cache kept between
// runs ($AGENT0_ENGINE_DIR, else .engine-cache/ in the checkout, gitignored).
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
