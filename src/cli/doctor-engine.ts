// `agent0 doctor`'s lines about the embedded engine (providers/embedded/): whether it is installed —
// where, which builds, its version — which models are downloaded, and what to run when one is missing.
// With `--provider embedded` the engine and the model are the server: missing, agent0 cannot answer.
import os from "node:os";
import type { Check } from "./doctor-check.js";
import { ENGINE_INSTALLED_SIZE } from "../protocol/engine-offer.js";
import {
  ENGINE_VERSION,
  engineDir,
  engineInstalled,
  formatBytes,
  installedBuilds,
  installedEngineVersion,
  listLocalModels,
  modelsDir,
  pickModelForMemory,
  platformBuild,
  resolveModelFile,
} from "./tool-use.js";

/** The engine, then the models on disk; `model`: the launch's model when it runs in the engine. */
export function engineChecks(dataDir: string, env: NodeJS.ProcessEnv, model?: string): Check[] {
  const inUse = model !== undefined;
  return [engineCheck(dataDir, env, inUse), ...(inUse ? [modelCheck(dataDir, model)] : []), modelsCheck(dataDir)];
}

function engineCheck(dataDir: string, env: NodeJS.ProcessEnv, inUse: boolean): Check {
  const dir = engineDir(dataDir, env);
  const what = "embedded engine";
  if (!engineInstalled(dir)) {
    const where = `${ENGINE_INSTALLED_SIZE} into ${dir}`;
    return inUse
      ? {
          ok: false,
          what,
          detail: `not installed (${dir})`,
          cost: "no model can answer",
          fix: `agent0 engine install (${where})`,
          fatal: true,
        }
      : { ok: "info", what, detail: `not installed: to run models without a server, agent0 engine install (${where})` };
  }
  const version = installedEngineVersion(dir) ?? "unknown version";
  const builds = installedBuilds(dir);
  const detail = `node-llama-cpp ${version}, ${builds.length ? builds.join(" + ") : "no build"}, in ${dir}`;
  // A version this agent0 was not made for, or no build for this machine: installing again mends both.
  const broken =
    version !== ENGINE_VERSION
      ? `this agent0 is made for ${ENGINE_VERSION}: the engine may not load`
      : !builds.includes(platformBuild())
        ? `no build for this machine (${platformBuild()}): the engine cannot run`
        : undefined;
  if (broken)
    return { ok: false, what, detail, cost: broken, fix: "agent0 engine install", ...(inUse && { fatal: true }) };
  return { ok: true, what, detail };
}

/** The launch's model, when it runs in the engine: its file on disk, or what to run. */
function modelCheck(dataDir: string, model: string): Check {
  const file = resolveModelFile(dataDir, model);
  if ("error" in file) {
    return {
      ok: false,
      what: "model",
      detail: file.error,
      cost: "a run would fail",
      fix: file.hint?.replace(/^Run: /, "") ?? "agent0 models (the list) and agent0 models pull <name>",
      fatal: true,
    };
  }
  return { ok: true, what: "model", detail: `${model} at ${file.path}` };
}

/** The models downloaded for the engine (and cut downloads waiting to resume). */
function modelsCheck(dataDir: string): Check {
  const rows = listLocalModels(dataDir);
  const downloaded = rows.filter((r) => r.path).map((r) => `${r.name} (${formatBytes(r.sizeBytes)})`);
  const partial = rows
    .filter((r) => !r.path && r.partialBytes)
    .map((r) => `${r.name} (${formatBytes(r.partialBytes!)} of ${formatBytes(r.sizeBytes)}, resumes)`);
  const pick = pickModelForMemory(os.freemem(), os.totalmem()).name;
  const detail = downloaded.length
    ? downloaded.join(", ")
    : `none downloaded: agent0 models pull ${pick} (fits this machine), or agent0 models for the list`;
  return {
    ok: "info",
    what: "embedded models",
    detail: `${detail}${partial.length ? `; cut: ${partial.join(", ")}` : ""} — in ${modelsDir(dataDir)}`,
  };
}
