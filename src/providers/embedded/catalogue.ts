// The models the embedded engine offers by short name, what `--model` may name, and the pick for this
// machine's memory. API (stable; the first screen's offer, `/model` and `agent0 models` build on it):
//   CATALOGUE                     the short names, each with its Hugging Face repository, file, size, window
//                                 and the memory it needs
//   parseModelRef(text)           `--model` as a ModelRef: a `.gguf` path, `hf:<owner>/<repo>[:<quant>]`,
//                                 or a short name (`embedded/` already split off by splitProviderModel)
//   pickModelForMemory(free, total)  the catalogue entry this machine runs best, or the smallest
//   formatBytes(n)                "1.1 GB" as every message here says it
// Nothing here touches the disk or the network: where files go is models-store.ts, fetching is download.ts.
import { assertNever } from "../../protocol/assert-never.js";

/** One model of the catalogue. Sizes are the Q4_K_M file's as the hub lists it (a download checks the
 *  hub's own figure and hash, not these). */
export interface CatalogueEntry {
  /** The short name, Ollama's style: `family:size`. */
  name: string;
  /** The Hugging Face repository, `owner/repo`. */
  repo: string;
  /** The file in it. */
  file: string;
  /** The file's bytes. */
  sizeBytes: number;
  /** The window it was trained for (tokens). */
  contextLength: number;
  /** Memory to run it at agent0's default window: the weights, the KV cache and the engine's buffers. */
  memoryBytes: number;
  /** One line for listings. */
  note: string;
  /** Offered by the first screen's pick (the rest are named on purpose only). */
  pickable: boolean;
}

const GB = 1e9;

/**
 * Sources: the Qwen team's own GGUF repositories (https://huggingface.co/Qwen/Qwen2.5-Coder-7B-Instruct-GGUF
 * and its 0.5B/1.5B/3B siblings, single files at Q4_K_M); Mistral's own Devstral Small 1.1 GGUF
 * (https://huggingface.co/mistralai/Devstral-Small-2507_gguf); Unsloth's GGUFs of Qwen3-Coder-30B-A3B and
 * Qwen3-4B-Instruct-2507 (https://huggingface.co/unsloth/Qwen3-Coder-30B-A3B-Instruct-GGUF,
 * https://huggingface.co/unsloth/Qwen3-4B-Instruct-2507-GGUF). Memory: the file plus ~25 % for the KV
 * cache at an 8–16 K window and the compute buffers (llama.cpp's own estimate is close to this on CPU).
 */
export const CATALOGUE: readonly CatalogueEntry[] = [
  entry(
    "qwen2.5-coder:0.5b",
    "Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF",
    "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    0.49,
    32_768,
    1.0,
    "smallest; for very small machines",
    true,
  ),
  entry(
    "qwen2.5-coder:1.5b",
    "Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF",
    "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    1.12,
    32_768,
    2.0,
    "fast on any laptop",
    true,
  ),
  entry(
    "qwen2.5-coder:3b",
    "Qwen/Qwen2.5-Coder-3B-Instruct-GGUF",
    "qwen2.5-coder-3b-instruct-q4_k_m.gguf",
    2.1,
    32_768,
    3.4,
    "a good first model with 8 GB",
    true,
  ),
  entry(
    "qwen3:4b",
    "unsloth/Qwen3-4B-Instruct-2507-GGUF",
    "Qwen3-4B-Instruct-2507-Q4_K_M.gguf",
    2.5,
    262_144,
    4.0,
    "Qwen3 4B Instruct 2507: newer, strong at tool calls",
    false,
  ),
  entry(
    "qwen2.5-coder:7b",
    "Qwen/Qwen2.5-Coder-7B-Instruct-GGUF",
    "qwen2.5-coder-7b-instruct-q4_k_m.gguf",
    4.68,
    32_768,
    6.4,
    "the best small coder that fits 16 GB",
    true,
  ),
  entry(
    "devstral:24b",
    "mistralai/Devstral-Small-2507_gguf",
    "Devstral-Small-2507-Q4_K_M.gguf",
    14.33,
    131_072,
    18.0,
    "Mistral's coding agent model (Devstral Small 1.1)",
    false,
  ),
  entry(
    "qwen3-coder:30b",
    "unsloth/Qwen3-Coder-30B-A3B-Instruct-GGUF",
    "Qwen3-Coder-30B-A3B-Instruct-Q4_K_M.gguf",
    18.56,
    262_144,
    22.0,
    "Qwen3-Coder 30B-A3B: 3B active, quick for its size",
    false,
  ),
];

function entry(
  name: string,
  repo: string,
  file: string,
  sizeGb: number,
  contextLength: number,
  memoryGb: number,
  note: string,
  pickable: boolean,
): CatalogueEntry {
  return {
    name,
    repo,
    file,
    sizeBytes: Math.round(sizeGb * GB),
    contextLength,
    memoryBytes: Math.round(memoryGb * GB),
    note,
    pickable,
  };
}

/** What `--model` names for the embedded engine. */
export type ModelRef =
  | { kind: "file"; path: string }
  | { kind: "hf"; repo: string; quant: string }
  | { kind: "catalogue"; entry: CatalogueEntry };

/** The quantisation taken from a repository when none is named (llama.cpp's `-hf` and Ollama's `hf.co/` pick it too). */
export const DEFAULT_QUANT = "Q4_K_M";

/** A catalogue name, or undefined. Case-insensitive, and `qwen2.5-coder` alone means its 1.5b. */
export function catalogueEntry(name: string): CatalogueEntry | undefined {
  const wanted = name.trim().toLowerCase();
  const full = wanted.includes(":") ? wanted : `${wanted}:${FAMILY_DEFAULT[wanted] ?? ""}`;
  return CATALOGUE.find((e) => e.name === full);
}

const FAMILY_DEFAULT: Record<string, string> = {
  "qwen2.5-coder": "1.5b",
  qwen3: "4b",
  devstral: "24b",
  "qwen3-coder": "30b",
};

const HF_REF = /^hf:([A-Za-z0-9][\w.-]*)\/([A-Za-z0-9][\w.-]*)(?::([\w.-]+))?$/;

/** `--model` for the embedded engine, or an error saying what it takes. */
export function parseModelRef(text: string): ModelRef | { error: string } {
  const t = text.trim();
  if (t.startsWith("hf:")) {
    const m = HF_REF.exec(t);
    if (!m)
      return {
        error: `"${t}" is not hf:<owner>/<repo>[:<quant>] (for example hf:Qwen/Qwen2.5-Coder-3B-Instruct-GGUF:Q4_K_M)`,
      };
    return { kind: "hf", repo: `${m[1]}/${m[2]}`, quant: m[3] ?? DEFAULT_QUANT };
  }
  if (/\.gguf$/i.test(t) || t.includes("/") || t.includes("\\")) return { kind: "file", path: t };
  const found = catalogueEntry(t);
  if (found) return { kind: "catalogue", entry: found };
  return {
    error: `"${t}" is no model the embedded engine knows. Give a .gguf file, hf:<owner>/<repo>[:<quant>], or one of: ${CATALOGUE.map((e) => e.name).join(", ")}`,
  };
}

/** The name a ref is shown and stored under (a catalogue name, `hf:owner/repo:QUANT`, or the path). */
export function refName(ref: ModelRef): string {
  switch (ref.kind) {
    case "file":
      return ref.path;
    case "hf":
      return `hf:${ref.repo}:${ref.quant}`;
    case "catalogue":
      return ref.entry.name;
    default:
      return assertNever(ref);
  }
}

/**
 * The model for this machine: the largest pickable entry whose need fits the memory free now (with a
 * fifth kept for the rest of the machine) and half of all memory; else the smallest.
 */
export function pickModelForMemory(freeBytes: number, totalBytes: number): CatalogueEntry {
  const budget = Math.min(freeBytes * 0.8, totalBytes * 0.5);
  const pickable = CATALOGUE.filter((e) => e.pickable).sort((a, b) => a.memoryBytes - b.memoryBytes);
  const fits = pickable.filter((e) => e.memoryBytes <= budget);
  return fits.at(-1) ?? pickable[0]!;
}

/** Bytes as people read them: "820 MB", "4.7 GB". */
export function formatBytes(n: number): string {
  if (n >= GB) return `${(n / GB).toFixed(1)} GB`;
  if (n >= 1e6) return `${Math.round(n / 1e6)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} KB`;
  return `${n} B`;
}
