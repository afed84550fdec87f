// A tool's output under its transcript line: all of it (up to a limit) when Ctrl+O expands tool
// entries, and the last lines of a failed shell command even when collapsed — the failing
// assertion is what the user needs to see.
import { highlight } from "../../render/markdown.js";
import { sanitize } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { truncateLine, wrapLine } from "../../render/wrap.js";
import type { Entry } from "../model.js";

/** Lines of a failed shell command shown while tool entries are collapsed. */
export const FAILED_TAIL_LINES = 10;

export interface ToolOutputContext {
  width: number;
  open: boolean;
  maxLines: number;
}

type ToolEntry = Extract<Entry, { kind: "tool" }>;

export function toolOutputLines(entry: ToolEntry, ctx: ToolOutputContext): string[] {
  if (!entry.output || entry.state === "running") return [];
  const failedShell = entry.state === "error" && entry.name === "run_shell_command";
  if (!ctx.open && !failedShell) return [];
  const all = entry.output.replace(/\n+$/, "").split("\n");
  const limit = ctx.open ? Math.max(1, ctx.maxLines) : FAILED_TAIL_LINES;
  // Expanded: the first lines; collapsed: a failure's last lines, where the error is.
  const shown = ctx.open ? all.slice(0, limit) : all.slice(-limit);
  const hidden = all.length - shown.length;
  const pad = "  ".repeat(entry.depth);
  const width = Math.max(10, ctx.width - pad.length - 4);
  const body = styled(shown, entry.outputLang).flatMap((line) => wrapLine(line, width));
  const out = body.map((line, i) => truncateLine(pad + (i === 0 ? theme.dim("  ⎿ ") : "    ") + line, ctx.width));
  const more = ctx.open ? `… +${hidden} more lines` : `… ${hidden} earlier lines · Ctrl+O to see all output`;
  if (hidden > 0) {
    const line = truncateLine(pad + "    " + theme.dim(more), ctx.width);
    if (ctx.open) out.push(line);
    else out.unshift(line);
  }
  return out;
}

// read_file numbers its lines as `cat -n` does: "     12\tcode".
const NUMBERED = /^( *\d+)\t(.*)$/;

/** Sanitized lines, in the language's colours when it is known; line numbers dimmed. */
function styled(lines: string[], lang: string | undefined): string[] {
  const numbered = lines.map((l) => NUMBERED.exec(l));
  const code = lines.map((l, i) => sanitize(numbered[i] ? numbered[i][2]! : l));
  const coloured = lang ? highlight(code.join("\n"), lang).split("\n") : code;
  return coloured.map((line, i) => {
    const n = numbered[i];
    return n ? theme.lineNo(n[1]!) + " " + (line ?? "") : (line ?? "");
  });
}
