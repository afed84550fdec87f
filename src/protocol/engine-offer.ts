// The first screen's offer when no server answers: agent0 runs a model itself (the embedded engine),
// with what it would take (plain data; the worker makes it, the UI and `-p` show it).

export interface EngineOffer {
  /** What `--model` takes for it (a catalogue name or `hf:…`), with `--provider embedded`. */
  model: string;
  /** Bytes still to download for the model (0: it is on disk; undefined: the hub says when asked, `hf:` models). */
  downloadBytes?: number;
  /** Where the model goes. */
  modelsDir: string;
  /** The engine is not installed yet: it comes first (about 110 MB, into engineDir). */
  engineMissing: boolean;
  engineDir: string;
  /** One line: why this model (the memory it fits, or the one named). */
  why: string;
}
