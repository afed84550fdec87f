import { configDir, homeDir } from "./dirs.js";
import { gitFacts, type GitFacts } from "./git.js";
import { memoryDirs, memoryIndexText } from "./memory.js";
import { loadInstructionFiles, type ContextFile } from "./project.js";

export interface LoadedContext {
  cwd: string;
  files: ContextFile[];
  git?: GitFacts;
  memoryIndex: string;
}

/** The I/O half: instruction files, git facts and the memory index for `cwd`. Never throws. */
export async function loadContext(
  cwd: string,
  env: Record<string, string | undefined> = process.env,
): Promise<LoadedContext> {
  const [files, git, memoryIndex] = await Promise.all([
    loadInstructionFiles(cwd, homeDir(env)),
    gitFacts(cwd).catch(() => undefined),
    memoryIndexText(memoryDirs(cwd, configDir(env))).catch(() => ""),
  ]);
  const loaded: LoadedContext = { cwd, files, memoryIndex };
  if (git) loaded.git = git;
  return loaded;
}
