// When no server answers, the embedded engine can run a model instead: what the first screen offers
// (the model this machine's memory runs best, its size, where it goes) and `-p` names with `--yes`.
import os from "node:os";
import type { EngineOffer } from "../protocol/engine-offer.js";
import type { RunConfig } from "../protocol/run-config.js";
import { CATALOGUE, formatBytes, parseModelRef, pickModelForMemory, refName } from "../providers/embedded/catalogue.js";
import { engineDir, engineInstalled } from "../providers/embedded/engine.js";
import { localModelPath, modelsDir } from "../providers/embedded/models-store.js";

export interface MachineMemory {
  free: number;
  total: number;
}

/**
 * The offer for a session whose server did not answer (`noServer`: Ollama at its default address, and
 * nothing else found on loopback), or whose embedded engine or model is not there yet; undefined when
 * the engine has nothing to offer (a file of the user's that is missing, a name it does not know).
 */
export function engineOffer(
  config: RunConfig,
  noServer: boolean,
  env: NodeJS.ProcessEnv = process.env,
  memory: MachineMemory = { free: os.freemem(), total: os.totalmem() },
): EngineOffer | undefined {
  const dir = engineDir(config.dataDir, env);
  const engineMissing = !engineInstalled(dir);
  const base = { modelsDir: modelsDir(config.dataDir), engineMissing, engineDir: dir };
  if (config.provider === "embedded") {
    const ref = parseModelRef(config.model);
    if ("error" in ref) return undefined;
    const onDisk = localModelPath(config.dataDir, ref) !== undefined;
    if (ref.kind === "file" && !onDisk) return undefined;
    if (onDisk && !engineMissing) return undefined;
    const downloadBytes = onDisk ? 0 : ref.kind === "catalogue" ? ref.entry.sizeBytes : undefined;
    return { ...base, model: refName(ref), ...sized(downloadBytes), why: "the model you named" };
  }
  if (!noServer) return undefined;
  // A model downloaded before is offered first: nothing to fetch.
  const had = CATALOGUE.find((e) => localModelPath(config.dataDir, { kind: "catalogue", entry: e }));
  if (had) return { ...base, model: had.name, downloadBytes: 0, why: "downloaded before" };
  const pick = pickModelForMemory(memory.free, memory.total);
  return {
    ...base,
    model: pick.name,
    ...sized(pick.sizeBytes),
    why: `${pick.note}; fits this machine's memory, ${formatBytes(memory.free)} free of ${formatBytes(memory.total)}`,
  };
}

function sized(bytes: number | undefined): Pick<EngineOffer, "downloadBytes" | "downloadSize"> {
  return bytes === undefined ? {} : { downloadBytes: bytes, downloadSize: formatBytes(bytes) };
}
