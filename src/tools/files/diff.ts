// A tiny wrapper over jsdiff so core does not depend on render/.
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";

/** Unified diff of one file, `--- a` / `+++ b` headers and 3 lines of context. Empty `before` = a new file. */
export function fileDiff(rel: string, before: string, after: string): string {
  const oldName = before === "" ? "/dev/null" : rel;
  return createTwoFilesPatch(oldName, rel, before, after, undefined, undefined, {
    context: 3,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

export function diffStats(unified: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diffHunks(unified).split("\n")) {
    if (line.startsWith("+")) added++;
    else if (line.startsWith("-")) removed++;
  }
  return { added, removed };
}

/** The diff without its `---`/`+++` header lines: what the model is shown after an edit. */
export function diffHunks(unified: string): string {
  const start = unified.search(/^@@/m);
  return start < 0 ? "" : unified.slice(start);
}
