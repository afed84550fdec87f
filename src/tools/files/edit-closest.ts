// The refusal's pointer: the region of the file most like old_string, with line numbers, for the
// model to copy from when nothing matched.
import { blockLines, similarity } from "./edit-text.js";

const CLOSE_LINE = 0.6;

/** The region most like old_string, ±3 lines with numbers, for the model to copy from. */
export function closest(lines: readonly string[], oldText: string): string {
  const want = [...new Set(blockLines(oldText).map((l) => l.trim()))].filter((l) => l !== "");
  if (want.length === 0) return "";
  const k = Math.max(1, blockLines(oldText).length);
  // A line scores its likeness to the most similar line of old_string (in big files: equal lines only).
  const fuzzy = lines.length * want.length <= 50_000;
  const hits = lines.map((l) => {
    const t = l.trim();
    if (t === "") return 0;
    if (!fuzzy) return want.includes(t) ? 1 : 0;
    const best = Math.max(...want.map((w) => (Math.abs(w.length - t.length) > w.length / 2 ? 0 : similarity(t, w))));
    return best >= CLOSE_LINE ? best : 0;
  });
  let best = -1;
  let bestScore = 0;
  let score = 0;
  for (let i = 0; i < hits.length; i++) {
    score += hits[i]!;
    if (i >= k) score -= hits[i - k]!;
    if (score > bestScore) [best, bestScore] = [Math.max(0, i - k + 1), score];
  }
  if (best < 0) return " Nothing in the file resembles it: read the file again and copy the text exactly.";
  const from = Math.max(0, best - 3);
  const count = lines.at(-1) === "" ? lines.length - 1 : lines.length;
  const to = Math.min(count, best + k + 3);
  const shown = lines
    .slice(from, to)
    .map((l, j) => `${String(from + j + 1).padStart(6)}\t${l}`)
    .join("\n");
  return ` The closest region (lines ${from + 1}-${to}) is:\n${shown}\nCopy old_string exactly from it (without the line numbers).`;
}
