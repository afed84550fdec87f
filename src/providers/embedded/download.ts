// A model's file from the Hugging Face hub into the data folder. API (stable; `agent0 models pull` and the
// first screen's offer call it):
//   downloadModel(req) -> DownloadResult     never throws; req.onEvent hears DownloadEvents as it goes
//   progressLine(e)                          "412 MB of 1.1 GB  37 %  12 MB/s  52 s left" (CLI and TUI)
// What it guarantees: the disk's free space checked before the first byte; a cut connection resumed
// with HTTP Range (and a cut download resumed by the next call: `<file>.part` stays); the whole file's
// sha256 compared with the hub's (`X-Linked-Etag`) before it takes its final name, so a file at its
// final name is always checked and a mismatch is deleted and said; one process per file (`<file>.lock`,
// session/lock.ts's rule), another waiting for it and then using its file.
import { createHash, type Hash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { acquireLock, lockHolder, type LockOwner } from "../../session/lock.js";
import { formatBytes, parseModelRef, refName, type ModelRef } from "./catalogue.js";
import { fetchBytes, HubError, listRepoFiles, resolveHubFile, type HubFile, type HubOptions } from "./hub.js";
import { fileForQuant, modelFilePath, quantOf } from "./models-store.js";

export type DownloadEvent =
  /** Another agent0 process is downloading this file: this one waits for it, then uses its file. */
  | { type: "waiting"; pid: number }
  /** The first byte is about to come (fromBytes > 0: a cut download resumed). */
  | { type: "start"; file: string; totalBytes: number; fromBytes: number }
  | { type: "progress"; receivedBytes: number; totalBytes: number; bytesPerSecond: number; secondsLeft: number }
  /** The connection broke and the transfer goes on from `fromBytes` (an HTTP Range request). */
  | { type: "resumed"; fromBytes: number; reason: string }
  | { type: "verifying" };

export interface DownloadRequest {
  dataDir: string;
  /** A catalogue name or `hf:<owner>/<repo>[:<quant>]` (a ModelRef of kind "file" needs no download). */
  model: string | ModelRef;
  /** `$HF_ENDPOINT` or https://huggingface.co (hub.ts hfEndpoint). */
  endpoint: string;
  token?: string;
  signal?: AbortSignal;
  onEvent?: (e: DownloadEvent) => void;
  /** Free bytes where the file goes (default: statfs; tests give a small figure). */
  freeDiskBytes?: (dir: string) => number;
  /** How often a waiting process looks at the lock again (ms). */
  pollMs?: number;
}

export type DownloadErrorKind =
  "bad-name" | "offline" | "not-found" | "auth" | "http" | "disk" | "checksum" | "aborted";

export type DownloadResult =
  | {
      ok: true;
      path: string;
      sizeBytes: number;
      sha256?: string;
      /** already on disk: nothing fetched */ already: boolean;
    }
  | { ok: false; kind: DownloadErrorKind; message: string };

class DownloadError extends Error {
  constructor(
    readonly kind: DownloadErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** Consecutive breaks without a byte between them before the download gives up. */
const MAX_RESUMES = 5;

export async function downloadModel(req: DownloadRequest): Promise<DownloadResult> {
  try {
    return await download(req);
  } catch (err) {
    if (err instanceof DownloadError || err instanceof HubError)
      return { ok: false, kind: err.kind, message: err.message };
    if (req.signal?.aborted) return { ok: false, kind: "aborted", message: "Stopped." };
    return { ok: false, kind: "http", message: (err as Error).message };
  }
}

async function download(req: DownloadRequest): Promise<DownloadResult> {
  const ref = typeof req.model === "string" ? parseModelRef(req.model) : req.model;
  if ("error" in ref) throw new DownloadError("bad-name", ref.error);
  if (ref.kind === "file") throw new DownloadError("bad-name", `${ref.path} is a file of yours: nothing to download.`);
  const what = `agent0 models pull ${refName(ref)}`;
  const hub: HubOptions = { endpoint: req.endpoint, token: req.token, signal: req.signal };
  const repo = ref.kind === "catalogue" ? ref.entry.repo : ref.repo;
  const file = ref.kind === "catalogue" ? ref.entry.file : await fileInRepo(repo, ref.quant, hub, what);
  const target = modelFilePath(req.dataDir, repo, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  for (;;) {
    if (fs.existsSync(target)) return { ok: true, path: target, sizeBytes: fs.statSync(target).size, already: true };
    const lock = acquireLock(target);
    if (!lock.ok) {
      await waitForLock(target, lock.owner, req);
      continue;
    }
    try {
      if (fs.existsSync(target)) continue; // the other process finished between our look and our lock
      const remote = await resolveHubFile(repo, file, hub, what);
      return await transfer(target, remote, hub, what, req);
    } finally {
      lock.lock.release();
    }
  }
}

/** The repository's single-file GGUF of this quantisation. */
async function fileInRepo(repo: string, quant: string, hub: HubOptions, what: string): Promise<string> {
  const files = await listRepoFiles(repo, hub, what);
  const file = fileForQuant(files, quant);
  if (file) return file;
  const offered = [...new Set(files.flatMap((f) => quantOf(f) ?? []))].join(", ");
  throw new DownloadError(
    "not-found",
    `${repo} has no single-file GGUF at ${quant}${offered ? ` (it has: ${offered})` : ""}.`,
  );
}

/** Until the holder is done (its file is there) or gone (its lock is stale: the caller takes it over). */
async function waitForLock(target: string, owner: LockOwner, req: DownloadRequest): Promise<void> {
  req.onEvent?.({ type: "waiting", pid: owner.pid });
  while (!fs.existsSync(target) && lockHolder(target)) {
    if (req.signal?.aborted) throw new DownloadError("aborted", "Stopped.");
    await new Promise((r) => setTimeout(r, req.pollMs ?? 250));
  }
}

function statfsFree(dir: string): number {
  const s = fs.statfsSync(dir);
  return s.bavail * s.bsize;
}

async function transfer(
  target: string,
  remote: HubFile,
  hub: HubOptions,
  what: string,
  req: DownloadRequest,
): Promise<DownloadResult> {
  const part = `${target}.part`;
  let have = sizeOf(part);
  if (have > remote.sizeBytes) {
    fs.rmSync(part, { force: true });
    have = 0;
  }
  const free = (req.freeDiskBytes ?? statfsFree)(path.dirname(target));
  const need = remote.sizeBytes - have;
  if (free < need) {
    throw new DownloadError(
      "disk",
      `Not enough disk space for ${path.basename(target)}: it needs ${formatBytes(need)} and ${formatBytes(free)} is free in ${path.dirname(target)}.`,
    );
  }
  const sum = { hash: createHash("sha256") };
  if (have > 0) await hashFile(part, sum.hash);
  req.onEvent?.({ type: "start", file: path.basename(target), totalBytes: remote.sizeBytes, fromBytes: have });
  const meter = progressMeter(remote.sizeBytes, have, req.onEvent);
  let breaks = 0;
  while (have < remote.sizeBytes) {
    const before = have;
    try {
      have = await receive(part, remote, have, sum, hub, what, meter);
    } catch (err) {
      if (req.signal?.aborted)
        throw new DownloadError("aborted", "Stopped: the part downloaded is kept and the next pull resumes it.");
      if (err instanceof HubError || err instanceof DownloadError) throw err;
      have = sizeOf(part);
      breaks = have > before ? 0 : breaks + 1;
      if (breaks >= MAX_RESUMES)
        throw new DownloadError(
          "http",
          `The download broke ${MAX_RESUMES} times without progress (${(err as Error).message}); run ${what} to resume it.`,
        );
      req.onEvent?.({ type: "resumed", fromBytes: have, reason: (err as Error).message });
    }
  }
  meter.finish();
  req.onEvent?.({ type: "verifying" });
  const sha256 = sum.hash.digest("hex");
  if (sha256 !== remote.sha256) {
    fs.rmSync(part, { force: true });
    throw new DownloadError(
      "checksum",
      `${path.basename(target)} arrived damaged: its sha256 is ${sha256}, the hub's is ${remote.sha256}. The file was deleted; run ${what} to try again.`,
    );
  }
  fs.renameSync(part, target);
  return { ok: true, path: target, sizeBytes: remote.sizeBytes, sha256, already: false };
}

/** One GET from `from` to the end (or until the connection breaks): appends to `part`, returns the bytes held. */
async function receive(
  part: string,
  remote: HubFile,
  from: number,
  sum: { hash: Hash },
  hub: HubOptions,
  what: string,
  meter: ReturnType<typeof progressMeter>,
): Promise<number> {
  const res = await fetchBytes(remote, from, hub, what);
  let have = from;
  if (from > 0 && res.status === 200) {
    // The server ignored Range and sends the whole file: take it from its first byte.
    fs.rmSync(part, { force: true });
    sum.hash = createHash("sha256");
    have = 0;
  }
  if (res.status !== 200 && res.status !== 206)
    throw new DownloadError("http", `The download answered HTTP ${res.status}.`);
  if (!res.body) throw new DownloadError("http", "The download answered with no body.");
  const fd = fs.openSync(part, "a");
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const room = remote.sizeBytes - have;
      const bytes = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      fs.writeSync(fd, bytes);
      sum.hash.update(bytes);
      have += bytes.byteLength;
      meter.add(have);
    }
  } finally {
    fs.closeSync(fd);
  }
  if (have < remote.sizeBytes)
    throw new Error(`the connection closed at ${formatBytes(have)} of ${formatBytes(remote.sizeBytes)}`);
  return have;
}

/** Progress at most every 100 ms: speed over this run's bytes, time left at that speed. */
function progressMeter(total: number, startBytes: number, onEvent: DownloadRequest["onEvent"]) {
  const started = Date.now();
  let last = 0;
  let received = startBytes;
  const emit = () => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const bytesPerSecond = Math.round((received - startBytes) / seconds);
    const secondsLeft = bytesPerSecond > 0 ? Math.ceil((total - received) / bytesPerSecond) : Infinity;
    onEvent?.({ type: "progress", receivedBytes: received, totalBytes: total, bytesPerSecond, secondsLeft });
  };
  return {
    add(have: number) {
      received = have;
      if (Date.now() - last < 100) return;
      last = Date.now();
      emit();
    },
    finish: emit,
  };
}

/** A progress event as one line: size, share, speed and time left. */
export function progressLine(e: Extract<DownloadEvent, { type: "progress" }>): string {
  const share = e.totalBytes > 0 ? Math.floor((e.receivedBytes / e.totalBytes) * 100) : 0;
  const speed = `${formatBytes(e.bytesPerSecond)}/s`;
  return `${formatBytes(e.receivedBytes)} of ${formatBytes(e.totalBytes)}  ${share} %  ${speed}  ${duration(e.secondsLeft)} left`;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min ${String(seconds % 60).padStart(2, "0")} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

function sizeOf(p: string): number {
  try {
    return fs.statSync(p).size;
  } catch {
    return 0;
  }
}

async function hashFile(p: string, hash: Hash): Promise<void> {
  for await (const chunk of fs.createReadStream(p)) hash.update(chunk as Buffer);
}
