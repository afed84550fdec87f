import { sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { displayWidth, truncateLine } from "../../render/wrap.js";
import type { Model } from "../model.js";

/** The input box during Ctrl+R: the query and the match it found (its first line). */
export function searchInputView(
  model: Model,
  width: number,
): { lines: string[]; cursor: { row: number; col: number } } {
  const search = model.historySearch!;
  const found = search.index === null ? null : model.history[search.index]!;
  const head = `${theme.dim(found === null && search.query ? "(no match) " : "(history search) ")}${sanitizeLine(search.query)}`;
  const match = found === null ? "" : sanitizeLine(found.split("\n")[0] ?? "");
  const line = truncateLine(`${head}${theme.dim(" → ")}${theme.user(match)}`, width);
  const col = Math.min(
    width - 1,
    displayWidth((found === null && search.query ? "(no match) " : "(history search) ") + sanitizeLine(search.query)),
  );
  return { lines: [line], cursor: { row: 0, col } };
}
