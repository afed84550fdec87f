// `agent0 models [list]`, `agent0 models pull <name>`, `agent0 models rm <name>`: the embedded engine's
// models — the catalogue and what is downloaded, with sizes and where they are kept.
import os from "node:os";
import { dataDir } from "../context/dirs.js";
import { assertNever } from "../protocol/assert-never.js";
import { embeddedModels, engineDir, engineInstalled, type DownloadEvent } from "./tool-use.js";

type Models = Awaited<ReturnType<typeof embeddedModels>>;

export interface ModelsIo {
  env: NodeJS.ProcessEnv;
  out(s: string): void;
  /** Progress and errors. */
  err(s: string): void;
  /** Whether `err` is a terminal: progress then redraws one line. */
  errIsTty: boolean;
  signal?: AbortSignal;
}

export async function runModelsList(io: ModelsIo): Promise<number> {
  const m = await embeddedModels();
  const data = dataDir(io.env);
  const rows = m.listLocalModels(data);
  const pick = m.pickModelForMemory(os.freemem(), os.totalmem());
  const table = rows.map((r) => [
    r.name + (r.entry === pick ? " *" : ""),
    m.formatBytes(r.sizeBytes),
    r.path ? "downloaded" : r.partialBytes !== undefined ? `partial (${m.formatBytes(r.partialBytes)})` : "-",
    r.entry?.note ?? r.file,
  ]);
  const widths = [0, 1, 2].map((i) =>
    Math.max(...table.map((row) => row[i]!.length), ["NAME", "SIZE", "STATE"][i]!.length),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c))
      .join("  ")
      .trimEnd() + "\n";
  io.out(line(["NAME", "SIZE", "STATE", "ABOUT"]));
  for (const row of table) io.out(line(row));
  const engine = engineDir(data, io.env);
  io.out(
    `\n* the pick for this machine (${m.formatBytes(os.freemem())} of ${m.formatBytes(os.totalmem())} memory free)\n`,
  );
  io.out(`Models are kept in ${m.modelsDir(data)}\n`);
  io.out(
    engineInstalled(engine)
      ? `The engine is installed in ${engine}\n`
      : `The engine is not installed yet: agent0 engine install (or the first run of agent0 --provider embedded)\n`,
  );
  io.out(`Pull: agent0 models pull <name>   Also: hf:<owner>/<repo>[:<quant>] or a .gguf file as --model\n`);
  return 0;
}

export async function runModelsPull(name: string, io: ModelsIo): Promise<number> {
  const m = await embeddedModels();
  const data = dataDir(io.env);
  io.err(`Pulling ${name} into ${m.modelsDir(data)}\n`);
  const r = await m.downloadModel({
    dataDir: data,
    model: name,
    endpoint: m.hfEndpoint(io.env),
    token: io.env.HF_TOKEN || undefined,
    signal: io.signal,
    onEvent: progressPrinter(m, io),
  });
  if (!r.ok) {
    io.err(`${io.errIsTty ? "\n" : ""}error: ${r.message}\n`);
    return 1;
  }
  const sha = r.sha256 ? `, sha256 ${r.sha256} checked` : "";
  io.out(`${r.already ? "Already downloaded" : "Downloaded"}: ${r.path} (${m.formatBytes(r.sizeBytes)}${sha})\n`);
  return 0;
}

/** On a terminal one line redrawn in place; elsewhere a line per tenth of the file. */
function progressPrinter(m: Models, io: ModelsIo) {
  let tenth = -1;
  return (e: DownloadEvent): void => {
    switch (e.type) {
      case "waiting":
        io.err(`Another agent0 (pid ${e.pid}) is downloading this file: waiting for it …\n`);
        return;
      case "start":
        io.err(
          e.fromBytes > 0
            ? `Resuming ${e.file} at ${m.formatBytes(e.fromBytes)} of ${m.formatBytes(e.totalBytes)}\n`
            : `${e.file}: ${m.formatBytes(e.totalBytes)}\n`,
        );
        return;
      case "progress": {
        if (io.errIsTty) return io.err(`\r\x1b[2K${m.progressLine(e)}`);
        const now = Math.floor((e.receivedBytes / e.totalBytes) * 10);
        if (now === tenth) return;
        tenth = now;
        io.err(`${m.progressLine(e)}\n`);
        return;
      }
      case "resumed":
        io.err(
          `${io.errIsTty ? "\n" : ""}The connection broke (${e.reason}); resuming at ${m.formatBytes(e.fromBytes)}\n`,
        );
        return;
      case "verifying":
        io.err(`${io.errIsTty ? "\n" : ""}Checking its sha256 against the hub's …\n`);
        return;
      default:
        assertNever(e);
    }
  };
}

export async function runModelsRemove(name: string, io: ModelsIo): Promise<number> {
  const m = await embeddedModels();
  const r = m.removeModel(dataDir(io.env), name);
  if ("error" in r) {
    io.err(`error: ${r.error}\n`);
    return 1;
  }
  io.out(`Removed ${r.removed.join(", ")} (${m.formatBytes(r.freedBytes)} freed)\n`);
  return 0;
}
