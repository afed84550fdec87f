// `agent0 review`: the change read by agent0 (context/review.ts), reviewed by the model in a
// headless run in plan mode (it may read, never edit), printed as text or as one JSON object.
import { parseReviewTarget, reviewDiff, reviewPrompt } from "../context/review.js";
import { sanitize } from "../render/sanitize.js";
import type { HeadlessFlags } from "./headless.js";

export interface ReviewOptions {
  staged?: boolean;
  base?: string;
  json?: boolean;
}

/** Runs the review; with nothing to review it says so (in JSON too) and exits 0. */
export async function runReview(opts: ReviewOptions, flags: HeadlessFlags): Promise<number> {
  const target = parseReviewTarget(opts.base ?? (opts.staged ? "staged" : ""));
  const out = (obj: object) => process.stdout.write(JSON.stringify(obj) + "\n");
  if ("error" in target) {
    if (opts.json) out({ error: target.error });
    else process.stderr.write(sanitize(`error: ${target.error}\n`));
    return 2;
  }
  const read = await reviewDiff(process.cwd(), target);
  if (!read.ok) {
    if (opts.json) out({ answer: null, note: read.error });
    else process.stdout.write(sanitize(read.error + "\n"));
    return 0;
  }
  const { headless } = await import("./headless.js");
  const reviewing: HeadlessFlags = { ...flags, outputFormat: opts.json ? "json" : "text", permissionMode: "plan" };
  return headless(reviewPrompt(target, read.diff), reviewing);
}
