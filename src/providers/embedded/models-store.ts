// Where the embedded engine's models live: `<data>/models/<owner>--<repo>/<file>` (Hugging Face's own
// cache names a repository `models--owner--repo`). A file at its final name was checked against the
// hub's sha256 when it arrived (download.ts renames it there only then); `<file>.part` is a download
// under way or cut, `<file>.lock` the process fetching it. API (stable):
//   modelsDir(dataDir)                  the folder, shown by `agent0 models` and the first screen's offer
//   modelFilePath(dataDir, repo, file)  where one file goes
//   localModelPath(dataDir, ref)        the file a ref names, when it is on disk (nothing fetched)
//   resolveModelFile(dataDir, model)    `--model` as a file on disk, or the error and what to run
//   listLocalModels(dataDir)            the catalogue and every downloaded file, with sizes
//   removeModel(dataDir, name)          a downloaded model's file (and any part of it) deleted
import fs from "node:fs";
import path from "node:path";
import { assertNever } from "../../protocol/assert-never.js";
import { CATALOGUE, formatBytes, parseModelRef, refName, type CatalogueEntry, type ModelRef } from "./catalogue.js";

export function modelsDir(dataDir: string): string {
  return path.join(dataDir, "models");
}

function repoDir(dataDir: string, repo: string): string {
  return path.join(modelsDir(dataDir), repo.replace("/", "--"));
}

export function modelFilePath(dataDir: string, repo: string, file: string): string {
  return path.join(repoDir(dataDir, repo), path.basename(file));
}

/** The finished `.gguf` files of a repository already downloaded. */
function repoFiles(dataDir: string, repo: string): string[] {
  try {
    return fs.readdirSync(repoDir(dataDir, repo)).filter((f) => f.toLowerCase().endsWith(".gguf"));
  } catch {
    return [];
  }
}

/** A file of `repo` whose name carries the quantisation (`…-Q4_K_M.gguf`, `…-q4_k_m.gguf`). */
export function fileForQuant(files: string[], quant: string): string | undefined {
  const q = quant.toLowerCase();
  return files.find((f) => {
    const name = f.toLowerCase();
    return (
      name.endsWith(".gguf") &&
      !/-\d{5}-of-\d{5}\.gguf$/.test(name) &&
      new RegExp(`[-_.]${escapeRe(q)}\\.gguf$`).test(name)
    );
  });
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The file on disk a ref names, or undefined when it must be downloaded (or does not exist). */
export function localModelPath(dataDir: string, ref: ModelRef): string | undefined {
  switch (ref.kind) {
    case "file":
      return fs.existsSync(ref.path) ? path.resolve(ref.path) : undefined;
    case "catalogue": {
      const p = modelFilePath(dataDir, ref.entry.repo, ref.entry.file);
      return fs.existsSync(p) ? p : undefined;
    }
    case "hf": {
      const file = fileForQuant(repoFiles(dataDir, ref.repo), ref.quant);
      return file ? modelFilePath(dataDir, ref.repo, file) : undefined;
    }
    default:
      return assertNever(ref);
  }
}

/** The file a `--model` names, or why it cannot be used yet (never fetched here: download.ts does). */
export function resolveModelFile(
  dataDir: string,
  model: string,
): { path: string; entry?: CatalogueEntry } | { error: string; hint?: string } {
  const ref = parseModelRef(model);
  if ("error" in ref) return ref;
  const found = localModelPath(dataDir, ref);
  if (found) return { path: found, ...(ref.kind === "catalogue" && { entry: ref.entry }) };
  if (ref.kind === "file") return { error: `No model file at ${ref.path}` };
  const name = refName(ref);
  const size = ref.kind === "catalogue" ? ` (${formatBytes(ref.entry.sizeBytes)})` : "";
  return {
    error: `${name} is not downloaded yet${size}.`,
    hint: `Run: agent0 models pull ${name} (models go to ${modelsDir(dataDir)})`,
  };
}

/** One line of `agent0 models` and `/model`. */
export interface LocalModel {
  /** What `--model` takes for it: the catalogue name, else `hf:owner/repo:file-stem`. */
  name: string;
  repo: string;
  file: string;
  /** On disk: the file's bytes; else the catalogue's figure. */
  sizeBytes: number;
  /** Set when the file is on disk (checked when it arrived). */
  path?: string;
  /** Bytes of a cut download waiting to resume. */
  partialBytes?: number;
  entry?: CatalogueEntry;
}

/** The catalogue (downloaded or not) and then every other downloaded file. */
export function listLocalModels(dataDir: string): LocalModel[] {
  const rows: LocalModel[] = CATALOGUE.map((entry) => {
    const p = modelFilePath(dataDir, entry.repo, entry.file);
    return { name: entry.name, repo: entry.repo, file: entry.file, entry, ...onDisk(p, entry.sizeBytes) };
  });
  let repos: string[] = [];
  try {
    repos = fs.readdirSync(modelsDir(dataDir)).filter((d) => d.includes("--"));
  } catch {
    return rows;
  }
  for (const dir of repos.sort()) {
    const repo = dir.replace("--", "/");
    for (const file of repoFiles(dataDir, repo).sort()) {
      if (rows.some((r) => r.repo === repo && r.file === file)) continue;
      const p = modelFilePath(dataDir, repo, file);
      rows.push({ name: hfName(repo, file), repo, file, ...onDisk(p, 0) });
    }
  }
  return rows;
}

/** The quantisation a file's name ends in (`…-Q4_K_M.gguf` -> `Q4_K_M`), as the hub's GGUF repositories name them. */
export function quantOf(file: string): string | undefined {
  return /[-_.]((?:I?Q\d\w*|F16|BF16|F32))\.gguf$/i.exec(file)?.[1];
}

/** `hf:owner/repo:QUANT` when the file's name ends in a quantisation, else the file's own name. */
function hfName(repo: string, file: string): string {
  const quant = quantOf(file);
  return quant ? `hf:${repo}:${quant}` : `hf:${repo}:${file}`;
}

function onDisk(p: string, fallback: number): Pick<LocalModel, "sizeBytes" | "path" | "partialBytes"> {
  const size = statSize(p);
  const part = statSize(`${p}.part`);
  return {
    sizeBytes: size ?? fallback,
    ...(size !== undefined && { path: p }),
    ...(part !== undefined && { partialBytes: part }),
  };
}

function statSize(p: string): number | undefined {
  try {
    return fs.statSync(p).size;
  } catch {
    return undefined;
  }
}

/** Deletes a downloaded model (and a cut download of it); says what was freed, or why not. */
export function removeModel(
  dataDir: string,
  name: string,
): { removed: string[]; freedBytes: number } | { error: string } {
  const ref = parseModelRef(name);
  if ("error" in ref) return ref;
  if (ref.kind === "file") return { error: `${name} is your own file, not one agent0 downloaded: delete it yourself.` };
  const row = listLocalModels(dataDir).find((r) =>
    ref.kind === "catalogue" ? r.entry === ref.entry : r.name === name || sameHf(r, ref),
  );
  const files = row
    ? [row.path, row.partialBytes !== undefined ? modelFilePath(dataDir, row.repo, row.file) + ".part" : undefined]
    : [];
  const removed: string[] = [];
  let freedBytes = 0;
  for (const f of files) {
    if (!f) continue;
    freedBytes += statSize(f) ?? 0;
    fs.rmSync(f, { force: true });
    removed.push(f);
  }
  if (!removed.length) return { error: `${name} is not downloaded (models are in ${modelsDir(dataDir)}).` };
  return { removed, freedBytes };
}

function sameHf(row: LocalModel, ref: Extract<ModelRef, { kind: "hf" }>): boolean {
  return row.repo === ref.repo && fileForQuant([row.file], ref.quant) === row.file;
}
