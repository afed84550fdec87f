// `agent0 engine install`: llama.cpp (node-llama-cpp) with this platform's build only, into the data folder.
import { dataDir } from "../context/dirs.js";
import { engineDir, engineInstalled, folderSize, installEngine, platformBuild } from "./tool-use.js";

export async function runEngineInstall(env: NodeJS.ProcessEnv, out: (s: string) => void): Promise<number> {
  const dir = engineDir(dataDir(env), env);
  if (engineInstalled(dir)) {
    out(`The engine is already installed in ${dir} (${(folderSize(dir) / 1e6).toFixed(0)} MB).\n`);
    return 0;
  }
  out(`Installing the engine (node-llama-cpp with ${platformBuild()}, about 110 MB) into ${dir} …\n`);
  const r = await installEngine(dir, (line) => out(`  ${line}\n`));
  if (!r.ok) {
    out(`error: ${r.message}\n`);
    return 1;
  }
  out(`Installed: ${(folderSize(dir) / 1e6).toFixed(0)} MB in ${dir}.\n`);
  return 0;
}
