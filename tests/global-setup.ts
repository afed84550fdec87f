// Before any test file: the real engine the engine tests run (tests/engine/engine-dir.ts), installed
// once into its cache. In a fresh checkout that is one `npm install` from the registry: done here it is
// done once (two workers no longer race to install into the same folder) and its time is the
// set-up's, not that of whichever test file came first.
import { ensureTestEngine, TEST_ENGINE_DIR } from "./engine/engine-dir.js";
import { engineInstalled } from "../src/providers/embedded/engine.js";

export default async function setup(): Promise<void> {
  if (engineInstalled(TEST_ENGINE_DIR)) return;
  process.stderr.write(`Installing the engine the engine tests run (node-llama-cpp, once) into ${TEST_ENGINE_DIR}\n`);
  try {
    await ensureTestEngine();
  } catch (err) {
    throw new Error(
      `The engine tests need node-llama-cpp from the npm registry, installed once into ${TEST_ENGINE_DIR} ` +
        `(or $AGENT0_ENGINE_DIR): ${(err as Error).message}`,
    );
  }
}
