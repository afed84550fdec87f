// What `/review` and `agent0 review` put before the model: the change, read by agent0 itself
// (with the repository's program-running config off, safety/git-safety.ts), and the request.
import { safeGitArgs } from "../safety/git-safety.js";
import { gitOutput } from "./git.js";

export type ReviewTarget = { kind: "working" } | { kind: "staged" } | { kind: "branch"; base: string };

/** The longest diff sent whole; a longer one is cut and the model is told so. */
export const REVIEW_DIFF_LIMIT = 120_000;
const GIT_TIMEOUT_MS = 20_000;

/** `""` → the working tree, `staged` → the index, anything else → the branch against that base. */
export function parseReviewTarget(arg: string): ReviewTarget | { error: string } {
  const word = arg.trim();
  if (word === "") return { kind: "working" };
  if (word === "staged" || word === "--staged") return { kind: "staged" };
  // A base that starts with "-" would be read by git as an option.
  if (word.startsWith("-") || /\s/.test(word)) return { error: `not a branch or commit: ${word}` };
  return { kind: "branch", base: word };
}

export function reviewLabel(target: ReviewTarget): string {
  switch (target.kind) {
    case "working":
      return "the working tree's changes (staged and unstaged)";
    case "staged":
      return "the staged changes";
    case "branch":
      return `this branch against ${target.base}`;
  }
}

/** The diff of the target, or why there is none. */
export async function reviewDiff(
  cwd: string,
  target: ReviewTarget,
): Promise<{ ok: true; diff: string } | { ok: false; error: string }> {
  const git = async (args: string[]) =>
    gitOutput(cwd, [...(await safeGitArgs(cwd)), "diff", "--no-color", "--no-ext-diff", ...args], GIT_TIMEOUT_MS);
  let diff: string | undefined;
  switch (target.kind) {
    case "working": {
      // A repository without a commit has no HEAD: its staged and unstaged changes, one after the other.
      diff = (await git(["HEAD"])) ?? join(await git(["--cached"]), await git([]));
      break;
    }
    case "staged":
      diff = await git(["--cached"]);
      break;
    case "branch":
      diff = await git([`${target.base}...HEAD`, "--"]);
      break;
  }
  if (diff === undefined) return { ok: false, error: `git could not diff ${reviewLabel(target)} in ${cwd}` };
  if (diff.trim() === "") return { ok: false, error: `nothing to review: no changes in ${reviewLabel(target)}` };
  return { ok: true, diff };
}

function join(a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined && b === undefined ? undefined : `${a ?? ""}${b ?? ""}`;
}

/** The request the model gets: what to look for, how to report, and the diff itself. */
export function reviewPrompt(target: ReviewTarget, diff: string): string {
  const cut = diff.length > REVIEW_DIFF_LIMIT;
  const shown = cut ? diff.slice(0, REVIEW_DIFF_LIMIT) : diff;
  const head = [
    `Review ${reviewLabel(target)} below for bugs, risks and missing tests.`,
    "Read the surrounding code with read_file where the diff alone is not enough to judge. Do not edit files.",
    "Report in markdown, most serious first, grouped as **Must fix**, **Should fix** and **Nits**; give each",
    "finding as `path:line` — what is wrong — how to fix it. Say plainly when the change looks good.",
  ];
  if (cut) head.push(`(The diff is ${diff.length} characters; only the first ${REVIEW_DIFF_LIMIT} are shown.)`);
  return [...head, "", "```diff", shown.replace(/\n$/, ""), "```"].join("\n");
}
