export interface GitFacts {
  root: string;
  branch: string;
  /** `git status --short` lines, at most 20 of them. */
  status: string[];
  /** How many status lines were left out. */
  moreStatus: number;
  /** The last commits, `git log --oneline`. */
  commits: string[];
  /** What was not read within the start-up budget (a huge or slow repository). */
  notes?: string[];
}

/** The git section of the system prompt. */
export function formatGitFacts(facts: GitFacts): string {
  const out = [`Branch: ${facts.branch}`];
  if (facts.notes?.length) out.push(...facts.notes);
  if (facts.status.length === 0) out.push(facts.notes?.length ? "No changes among what was read." : "Status: clean");
  else {
    out.push("Status (git status --short):", ...facts.status.map((l) => `  ${l}`));
    if (facts.moreStatus > 0) out.push(`  … and ${facts.moreStatus} more`);
  }
  if (facts.commits.length === 0) out.push("No commits yet.");
  else out.push("Recent commits:", ...facts.commits.map((l) => `  ${l}`));
  return out.join("\n");
}
