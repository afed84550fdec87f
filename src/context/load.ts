import { configDir, homeDir } from "./dirs.js";
import { gitFacts, type GitFacts } from "./git.js";
import { memoryDirs, memoryIndexText } from "./memory.js";
import { loadInstructionFiles, type ContextFile } from "./project.js";

function budgetFrom(text: string | undefined): number | undefined {
  const ms = Number(text);
  return text && Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

export interface LoadedContext {
  cwd: string;
  files: ContextFile[];
  git?: GitFacts;
  memoryIndex: string;
}

/**
 * The I/O half: instruction files, git facts and the memory index for `cwd`. Never throws. The
 * git facts keep to their budget: GIT_FACTS_BUDGET_MS, or `gitBudgetMs`, or $AGENT0_GIT_BUDGET_MS
 * (a slow network filesystem may want more).
 */
export async function loadContext(
  cwd: string,
  env: Record<string, string | undefined> = process.env,
  { gitBudgetMs = budgetFrom(env.AGENT0_GIT_BUDGET_MS) }: { gitBudgetMs?: number } = {},
): Promise<LoadedContext> {
  const [files, git, memoryIndex] = await Promise.all([
    loadInstructionFiles(cwd, homeDir(env)),
    gitFacts(cwd, gitBudgetMs === undefined ? {} : { budgetMs: gitBudgetMs }).catch(() => undefined),
    memoryIndexText(memoryDirs(cwd, configDir(env))).catch(() => ""),
  ]);
  const loaded: LoadedContext = { cwd, files, memoryIndex };
  if (git) loaded.git = git;
  return loaded;
}
