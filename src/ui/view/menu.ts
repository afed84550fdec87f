import { sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { padLine, truncateLine } from "../../render/wrap.js";
import type { Model } from "../model.js";
import { MENU_MAX_ROWS, menuFooter, menuRows } from "../layout/menu.js";

/** The menu under the input: the selected row highlighted, the description and source dim. */
export function menuLines(model: Model, width: number): string[] {
  const rows = menuRows(model);
  if (!model.menu) return [];
  const note = menuFooter(model, rows.length);
  const tail = note === null ? [] : [truncateLine(`  ${theme.dim(note)}`, width)];
  if (rows.length === 0) return tail;
  const visible = Math.min(MENU_MAX_ROWS, rows.length);
  const selected = Math.min(model.menu.selected, rows.length - 1);
  const first = Math.max(0, Math.min(selected - visible + 1, rows.length - visible));
  // Wide enough for a command with its arguments (`/mcp__server__prompt <city> [state]`) when the screen allows.
  const labelMax = Math.max(32, Math.floor(width / 2));
  const labelWidth = Math.min(labelMax, Math.max(...rows.slice(first, first + visible).map((r) => r.label.length)));
  const lines = rows.slice(first, first + visible).map((row, i) => {
    const isSelected = first + i === selected;
    const label = padLine(truncateLine(sanitizeLine(row.label), labelWidth), labelWidth);
    const source = row.source ? theme.dim(` [${sanitizeLine(row.source)}]`) : "";
    const text = `${isSelected ? "›" : " "} ${isSelected ? theme.user(label) : label}  ${theme.dim(sanitizeLine(row.detail))}${source}`;
    return truncateLine(text, width);
  });
  return [...lines, ...tail];
}
