// Accepting the engine offer (protocol/engine-offer.ts): the engine installed when it is missing, then
// the model downloaded with a progress bar, on the main thread (the TUI's Cmd, `-p --yes`). Each step
// reports one line; a failure is a value with what to do.
import type { EngineOffer } from "../protocol/engine-offer.js";
export { offerLines } from "../protocol/engine-offer.js";
import { formatBytes, installEngine, modelDownloads, type DownloadEvent } from "./tool-use.js";

const BAR = 24;

/** `[██████░░░░] 1.1 GB of 2.1 GB · 12 MB/s · 1m 20s left` */
export function progressBar(received: number, total: number, bytesPerSecond: number, secondsLeft: number): string {
  const done = total > 0 ? Math.min(BAR, Math.round((received / total) * BAR)) : 0;
  const left = Number.isFinite(secondsLeft) ? `${duration(secondsLeft)} left` : "…";
  return `[${"█".repeat(done)}${"░".repeat(BAR - done)}] ${formatBytes(received)} of ${formatBytes(total)} · ${formatBytes(bytesPerSecond)}/s · ${left}`;
}

function duration(s: number): string {
  if (s < 60) return `${Math.ceil(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${Math.round(s % 60)}s`;
  return `${Math.floor(s / 3600)}h ${Math.round((s % 3600) / 60)}m`;
}

/** One line per download event. */
export function downloadLine(model: string, e: DownloadEvent): string {
  switch (e.type) {
    case "waiting":
      return `Another agent0 (pid ${e.pid}) is downloading ${model}: waiting for it…`;
    case "start":
      return e.fromBytes > 0
        ? `Resuming ${e.file} at ${formatBytes(e.fromBytes)} of ${formatBytes(e.totalBytes)}…`
        : `Downloading ${e.file} (${formatBytes(e.totalBytes)})…`;
    case "progress":
      return `${model} ${progressBar(e.receivedBytes, e.totalBytes, e.bytesPerSecond, e.secondsLeft)}`;
    case "resumed":
      return `The connection broke (${e.reason}); resuming at ${formatBytes(e.fromBytes)}…`;
    case "verifying":
      return `Checking ${model}'s sha256…`;
  }
}

export interface SetupOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  onLine: (line: string) => void;
}

/** The engine, then the model: `{ ok: true }` once both are there. */
export async function acceptOffer(
  offer: EngineOffer,
  opts: SetupOptions,
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (offer.engineMissing) {
    opts.onLine(`Installing the engine (llama.cpp) into ${offer.engineDir}…`);
    const r = await installEngine(offer.engineDir);
    if (!r.ok) return { ok: false, message: r.message ?? "The engine could not be installed." };
    if (opts.signal.aborted) return { ok: false, message: "Stopped." };
  }
  if (offer.downloadBytes === 0) return { ok: true };
  const { downloadModel, hfEndpoint } = await modelDownloads();
  const r = await downloadModel({
    dataDir: opts.dataDir,
    model: offer.model,
    endpoint: hfEndpoint(opts.env),
    token: opts.env.HF_TOKEN,
    signal: opts.signal,
    onEvent: (e) => opts.onLine(downloadLine(offer.model, e)),
  });
  return r.ok ? { ok: true } : { ok: false, message: r.message };
}
