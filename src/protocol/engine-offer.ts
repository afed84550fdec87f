// The first screen's offer when no server answers: agent0 runs a model itself (the embedded engine),
// with what it would take (plain data; the worker makes it, the UI and `-p` show it).

/**
 * What `agent0 engine install` leaves on disk with its dependencies: 78 MB measured for
 * linux-x64's build (node-llama-cpp 39 MB, the build 30 MB, the rest 10 MB); other platforms'
 * builds differ by a few MB. Said before the install, in the offer and by doctor.
 */
export const ENGINE_INSTALLED_SIZE = "about 80 MB";

export interface EngineOffer {
  /** What `--model` takes for it (a catalogue name or `hf:…`), with `--provider embedded`. */
  model: string;
  /** Bytes still to download for the model (0: it is on disk; undefined: the hub says when asked, `hf:` models). */
  downloadBytes?: number;
  /** The same as people read it ("2.1 GB"), when known. */
  downloadSize?: string;
  /** Where the model goes. */
  modelsDir: string;
  /** The engine is not installed yet: it comes first (ENGINE_INSTALLED_SIZE, into engineDir). */
  engineMissing: boolean;
  engineDir: string;
  /** One line: why this model (the memory it fits, or the one named). */
  why: string;
}

/** The offer in a few lines, for the first screen and for `-p`. */
export function offerLines(offer: EngineOffer): string[] {
  const lines = [
    "No server answers. agent0 can run the model itself:",
    `  ${offer.model} — ${offer.downloadBytes === 0 ? "already downloaded" : (offer.downloadSize ?? "size from the hub")} (${offer.why})`,
  ];
  if (offer.downloadBytes !== 0) lines.push(`  into ${offer.modelsDir}`);
  if (offer.engineMissing) lines.push(`  and the engine (llama.cpp, ${ENGINE_INSTALLED_SIZE}) into ${offer.engineDir}`);
  return lines;
}
