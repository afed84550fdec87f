export interface GitFacts {
  root: string;
  branch: string;
  /** `git status --short` lines, at most 20 of them. */
  status: string[];
  /** How many status lines were left out. */
  moreStatus: number;
  /** The last commits, `git log --oneline`. */
  commits: string[];
}

/** The git section of the system prompt. */
export function formatGitFacts(facts: GitFacts): string {
  const out = [`Branch: ${facts.branch}`];
  if (facts.status.length === 0) out.push("Status: clean");
  else {
    out.push("Status (git status --short):", ...facts.status.map((l) => `  ${l}`));
    if (facts.moreStatus > 0) out.push(`  … and ${facts.moreStatus} more`);
  }
  if (facts.commits.length === 0) out.push("No commits yet.");
  else out.push("Recent commits:", ...facts.commits.map((l) => `  ${l}`));
  return out.join("\n");
}
