// The worker-side code that the main thread runs too, named in one place (ARCHITECTURE.md,
// "Main-thread uses"): none of it calls a model or asks for approval. What start-up needs is
// small and imported as it is; the rest loads on first use, so the first frame never waits for it.
import type { RunConfig } from "../protocol/run-config.js";

export { resolveOllamaHost } from "../providers/ollama/host.js";
export { discoverLocalServers, discoveryPorts, isOllama, type FoundServer } from "../providers/discover.js";
export { killTagged, tagThisApp, watchChildStarts } from "../tools/shell/process-tag.js";
export { sandboxProblem } from "../tools/shell/sandbox.js";
export { containProbeArgv } from "../tools/shell/contain.js";
export type { DownloadEvent } from "../providers/embedded/download.js";
export { formatBytes, pickModelForMemory } from "../providers/embedded/catalogue.js";
export { listLocalModels, modelsDir, resolveModelFile } from "../providers/embedded/models-store.js";
export {
  cpuBuildDownloadBytes,
  ENGINE_VERSION,
  engineDir,
  engineInstalled,
  folderSize,
  gpuBuilds,
  installedBuilds,
  installedEngineVersion,
  installEngine,
  platformBuild,
  type GpuBuild,
} from "../providers/embedded/engine.js";

/** The file tools' view of the project, for @mentions (the same paths, ignores and limits as the model's). */
export async function projectFileRules() {
  const [{ resolveInside, realpathLoose }, { ProjectIgnore, ALWAYS_SKIPPED }, { readRegularFile }] = await Promise.all([
    import("../tools/files/workspace.js"),
    import("../tools/files/gitignore.js"),
    import("../tools/files/regular-file.js"),
  ]);
  // readRegularFile: only a regular file, opened without blocking, and no hard link to a file outside.
  return { resolveInside, realpathLoose, readRegularFile, ProjectIgnore, ALWAYS_SKIPPED };
}

/**
 * The embedded engine's models for the main thread (`agent0 models`, the first screen's offer, /model):
 * the catalogue, the models folder, downloads and the hub's endpoint. Loaded on first use.
 */
export async function embeddedModels() {
  const [catalogue, store, download, hub] = await Promise.all([
    import("../providers/embedded/catalogue.js"),
    import("../providers/embedded/models-store.js"),
    import("../providers/embedded/download.js"),
    import("../providers/embedded/hub.js"),
  ]);
  return { ...catalogue, ...store, ...download, hfEndpoint: hub.hfEndpoint };
}

/** The server's models, for /model (providers and their SDKs load only then). */
export async function listModels(config: RunConfig, signal?: AbortSignal, opts?: { names?: boolean }) {
  const { createProvider } = await import("../providers/index.js");
  return createProvider(config).listModels(signal, opts);
}

/**
 * The user's own `!command`: run in the project folder with the shell tool's runner, its output
 * masked and cut as a tool's would be, since it joins the conversation the model reads.
 */
export async function runUserShell(
  command: string,
  config: Pick<RunConfig, "cwd" | "outputLimit">,
  signal: AbortSignal,
): Promise<{ output: string; exitCode: number | null }> {
  const [{ runCommand, SHELL_DEFAULT_TIMEOUT_MS }, { forModel, outputLimit }] = await Promise.all([
    import("../tools/shell/shell.js"),
    import("../tools/output.js"),
  ]);
  const limit = outputLimit(config);
  const o = await runCommand(command, {
    cwd: config.cwd,
    signal,
    timeoutMs: SHELL_DEFAULT_TIMEOUT_MS,
    outputLimit: limit,
  });
  let output = forModel(o.output, limit, config.cwd);
  if (o.spawnError) output = `could not start the command: ${o.spawnError}`;
  else if (o.interrupted) output += "\n[stopped by the user (Esc)]";
  else if (o.timedOut) output += `\n[timed out after ${SHELL_DEFAULT_TIMEOUT_MS / 1000} s]`;
  return { output, exitCode: o.interrupted || o.timedOut ? null : o.exitCode };
}

/** What `agent0 doctor` probes of the worker's side: the sandbox, seccomp, ripgrep, the local servers. */
export async function doctorProbes() {
  const [{ sandboxProblem }, { unixSocketFilter }, { bundledRgPath }, { discoverLocalServers }, { resolveOllamaHost }] =
    await Promise.all([
      import("../tools/shell/sandbox.js"),
      import("../tools/shell/seccomp.js"),
      import("../tools/files/grep-engines.js"),
      import("../providers/discover.js"),
      import("../providers/ollama/host.js"),
    ]);
  return { sandboxProblem, unixSocketFilter, bundledRgPath, discoverLocalServers, resolveOllamaHost };
}

/** The embedded engine's model downloads (the first screen's offer, `-p --yes`), loaded on first use. */
export async function modelDownloads() {
  const [{ downloadModel }, { hfEndpoint }] = await Promise.all([
    import("../providers/embedded/download.js"),
    import("../providers/embedded/hub.js"),
  ]);
  return { downloadModel, hfEndpoint };
}
