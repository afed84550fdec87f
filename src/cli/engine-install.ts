// `agent0 engine install`: llama.cpp (node-llama-cpp) with this platform's build only, into the data folder;
// a GPU build too where its driver is found (nvidia-smi, a Vulkan loader), said with its size first.
import { dataDir } from "../context/dirs.js";
import {
  cpuBuildDownloadBytes,
  engineDir,
  engineInstalled,
  folderSize,
  gpuBuilds,
  installEngine,
  platformBuild,
  type GpuBuild,
} from "./tool-use.js";
import { ENGINE_INSTALLED_SIZE } from "../protocol/engine-offer.js";

const mb = (n: number) => `${Math.round(n / 1e6)} MB`;

/** What the install will fetch, said before it starts. */
export function installPlan(gpu: readonly GpuBuild[], cpuOnly: boolean): { builds: GpuBuild[]; lines: string[] } {
  const cpu = cpuBuildDownloadBytes();
  const lines = [
    `node-llama-cpp with ${platformBuild()}${cpu ? ` (${mb(cpu)} download)` : ""}; ${ENGINE_INSTALLED_SIZE} installed with its dependencies`,
  ];
  for (const b of gpu) {
    const size = b.downloadBytes ? `${mb(b.downloadBytes)} download` : "size not known here";
    lines.push(
      cpuOnly
        ? `left out (--cpu): the ${b.kind === "cuda" ? "CUDA" : "Vulkan"} build ${b.pkg} (${size}), found ${b.found}`
        : `and the ${b.kind === "cuda" ? "CUDA" : "Vulkan"} build ${b.pkg}: ${size}, as ${b.found} is here (--cpu leaves it out)`,
    );
  }
  return { builds: cpuOnly ? [] : [...gpu], lines };
}

export async function runEngineInstall(
  env: NodeJS.ProcessEnv,
  out: (s: string) => void,
  opts: { cpu?: boolean } = {},
): Promise<number> {
  const dir = engineDir(dataDir(env), env);
  if (engineInstalled(dir)) {
    out(`The engine is already installed in ${dir} (${mb(folderSize(dir))}).\n`);
    return 0;
  }
  const plan = installPlan(gpuBuilds(env), opts.cpu === true);
  out(`Installing the engine into ${dir}:\n${plan.lines.map((l) => `  ${l}\n`).join("")}`);
  const r = await installEngine(dir, (line) => out(`  ${line}\n`), plan.builds);
  if (!r.ok) {
    out(`error: ${r.message}\n`);
    return 1;
  }
  out(`Installed: ${mb(folderSize(dir))} in ${dir}.\n`);
  return 0;
}
