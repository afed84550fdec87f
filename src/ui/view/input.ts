import { theme } from "../../render/theme.js";
import { truncateLine } from "../../render/wrap.js";
import type { Model } from "../model.js";
import { isShellLine, PROMPT, wrapInput } from "../layout/input.js";

/** The input box: wrapped to the width, scrolled to keep the cursor's row in view. */
export function inputView(model: Model, rowsShown: number): { lines: string[]; cursor: { row: number; col: number } } {
  const width = model.width;
  const { text, cursor } = model.input;
  if (!text) {
    const hint = model.run
      ? model.steerOnEnter
        ? "type to steer: Enter sends at the next step · Alt+Enter after the run…"
        : "type to queue a message…"
      : "Ask anything · /help";
    return { lines: [truncateLine(theme.user(PROMPT) + theme.dim(hint), width)], cursor: { row: 0, col: 2 } };
  }
  const { rows, cursorRow, cursorCol } = wrapInput(text, cursor, width);
  const first = Math.max(0, Math.min(cursorRow - rowsShown + 1, rows.length - rowsShown));
  const lines = rows.slice(first, first + rowsShown).map((r, i) => {
    if (i > 0) return "  " + r;
    // Rows scrolled out above are announced where the prompt would be.
    // A `!command` line runs in the shell: the prompt says so in the warning colour.
    const prompt = isShellLine(text) ? theme.warn(PROMPT) : theme.user(PROMPT);
    return (first === 0 ? prompt : theme.dim("↑ ")) + r;
  });
  return { lines, cursor: { row: cursorRow - first, col: cursorCol + PROMPT.length } };
}
