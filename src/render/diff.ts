/** Unified diffs: making them (jsdiff) and colouring them for the transcript. */
import { createTwoFilesPatch, parsePatch, type StructuredPatch } from "diff";
import { sanitize } from "./sanitize.js";
import { theme, type Style } from "./theme.js";
import { wrapLine } from "./wrap.js";

export const DEFAULT_DIFF_MAX_LINES = 40;

/** A unified diff of one file's change, as jsdiff's createTwoFilesPatch writes it. */
export function makeUnifiedDiff(path: string, before: string, after: string): string {
  return createTwoFilesPatch(path, path, before, after);
}

function parse(unified: string): StructuredPatch[] | undefined {
  try {
    const patches = parsePatch(unified);
    return patches.some((p) => p.hunks.length > 0) ? patches : undefined;
  } catch {
    return undefined;
  }
}

/** Lines added and removed; `--- ` / `+++ ` file headers are not counted. */
export function diffStats(unified: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  const patches = parse(unified);
  const lines = patches
    ? patches.flatMap((p) => p.hunks.flatMap((h) => h.lines))
    : unified.split("\n").filter((l) => !l.startsWith("+++ ") && !l.startsWith("--- "));
  for (const line of lines) {
    if (line.startsWith("+")) added++;
    else if (line.startsWith("-")) removed++;
  }
  return { added, removed };
}

/** One logical line of the diff before wrapping: gutter text (line number and sign) + body. */
interface Row {
  gutter: string;
  body: string;
  style: Style;
}

function rowsOfPatches(patches: StructuredPatch[]): Row[] {
  const last = Math.max(
    ...patches.flatMap((p) => p.hunks.map((h) => Math.max(h.oldStart + h.oldLines, h.newStart + h.newLines))),
  );
  const digits = String(last).length;
  const num = (n: number): string => theme.lineNo(String(n).padStart(digits));
  const blank = " ".repeat(digits);
  const rows: Row[] = [];
  for (const patch of patches) {
    if (patch.hunks.length === 0) continue;
    const { oldFileName: from, newFileName: to } = patch;
    if (from !== undefined || to !== undefined) {
      const name = from === to || to === undefined ? from : from === undefined ? to : `${from} → ${to}`;
      rows.push({ gutter: "", body: name ?? "", style: theme.diffHeader });
    }
    for (const hunk of patch.hunks) {
      const header = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
      rows.push({ gutter: "", body: header, style: theme.diffHunk });
      let oldNo = hunk.oldStart;
      let newNo = hunk.newStart;
      // Two number columns, old then new, as GitHub and `delta` show them: a removed line has
      // only its old number, an added line only its new one, context both.
      for (const line of hunk.lines) {
        const sign = line[0];
        const text = line.slice(1);
        if (sign === "-")
          rows.push({ gutter: `${num(oldNo++)} ${blank} ${theme.diffDel("-")} `, body: text, style: theme.diffDel });
        else if (sign === "+")
          rows.push({ gutter: `${blank} ${num(newNo++)} ${theme.diffAdd("+")} `, body: text, style: theme.diffAdd });
        else if (sign === "\\") rows.push({ gutter: `${blank} ${blank}   `, body: line, style: theme.dim });
        else rows.push({ gutter: `${num(oldNo++)} ${num(newNo++)}   `, body: text, style: theme.dim });
      }
    }
  }
  return rows;
}

/** Text that did not parse as a diff: coloured by its first character, without numbers. */
function rowsOfRawLines(unified: string): Row[] {
  return unified
    .replace(/\n$/, "")
    .split("\n")
    .filter((l) => !/^(Index: |={10,}$|--- |\+\+\+ )/.test(l))
    .map((line) => {
      const style = line.startsWith("+")
        ? theme.diffAdd
        : line.startsWith("-")
          ? theme.diffDel
          : line.startsWith("@@")
            ? theme.diffHunk
            : theme.dim;
      return { gutter: "", body: line, style };
    });
}

function wrapRow(row: Row, width: number): string[] {
  const body = sanitize(row.body);
  const gutterWidth = row.gutter === "" ? 0 : row.gutter.replace(/\x1b\[[0-9;]*m/g, "").length;
  const room = width - gutterWidth;
  if (room < 8) return wrapLine(row.gutter + row.style(body), width);
  const pieces = wrapLine(body, room);
  const hang = " ".repeat(gutterWidth);
  return pieces.map((piece, i) => (i === 0 ? row.gutter : hang) + (piece === "" ? "" : row.style(piece)));
}

/**
 * Colour a unified diff for a terminal `width` columns wide: file name, hunk headers in cyan,
 * then two number columns (old, new): removed lines red with their old number, added lines
 * green with their new number, context grey with both; long lines wrap under their text. A diff of more than
 * `maxLines` logical lines (default 40; wrapping may add screen lines) is folded: the first
 * `maxLines` are shown, then `… N more lines hidden`. An empty diff gives no lines.
 */
export function renderDiff(unified: string, width: number, opts: { maxLines?: number } = {}): string[] {
  const cols = Number.isFinite(width) ? Math.max(1, Math.floor(width)) : 80;
  const maxLines = Math.max(0, opts.maxLines ?? DEFAULT_DIFF_MAX_LINES);
  const patches = parse(unified);
  const rows = patches ? rowsOfPatches(patches) : rowsOfRawLines(unified);
  const shown = rows.slice(0, maxLines).flatMap((row) => wrapRow(row, cols));
  const hidden = rows.length - Math.min(rows.length, maxLines);
  if (hidden > 0) shown.push(...wrapLine(theme.dim(`… ${hidden} more lines hidden`), cols));
  return shown;
}
