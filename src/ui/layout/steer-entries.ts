import { sanitize, sanitizeLine } from "../../render/sanitize.js";
import { theme, type Style } from "../../render/theme.js";
import { truncateLine } from "../../render/wrap.js";
import type { Entry } from "../model.js";

/** Output lines of a `!command` shown in the transcript; the model gets all of it. */
export const SHELL_SHOWN_LINES = 20;

/** A line of a user message with its `@mentions` in the link colour, the rest in `style`. */
export function highlightMentions(line: string, style: Style): string {
  const parts = line.split(/((?:^|(?<=\s))@[^\s@]+)/);
  return parts.map((p) => (p.startsWith("@") && p.length > 1 ? theme.link(p) : p ? style(p) : "")).join("");
}

export function shellEntryLines(entry: Extract<Entry, { kind: "shell" }>, width: number): string[] {
  const head = `${theme.warn("!")} ${theme.user(sanitizeLine(entry.command))}`;
  if (entry.running) return ["", truncateLine(`${head} ${theme.dim("running…")}`, width)];
  const lines = sanitize(entry.output.replace(/\n$/, "")).split("\n");
  const shown = lines.slice(0, SHELL_SHOWN_LINES).map((l) => truncateLine(`  ${l}`, width));
  if (lines.length > SHELL_SHOWN_LINES)
    shown.push(theme.dim(`  … ${lines.length - SHELL_SHOWN_LINES} more lines (sent to the model)`));
  const status =
    entry.exitCode === 0 ? "" : theme.err(entry.exitCode === null ? " (killed)" : ` (exit ${entry.exitCode})`);
  return ["", truncateLine(head + status, width), ...shown];
}
