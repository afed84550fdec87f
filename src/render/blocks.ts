/**
 * Split markdown into top-level blocks that render the same alone as inside the whole document,
 * so each can be rendered and cached on its own. A cheap line scan, not a parse:
 * - blank lines outside a ``` / ~~~ fence end a block;
 * - once a block holds a list item, blank lines followed by another list item or an indented
 *   line do not end it (a loose list must stay one list, or an ordered one would be renumbered).
 * Known gap: a reference-style link whose definition sits in another block stays unresolved.
 */
const FENCE_OPEN = /^\s*(`{3,}|~{3,})/;
export const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])(?:\s|$)/;
const INDENTED = /^\s{2,}\S/;

export interface Fence {
  char: string;
  length: number;
}

export function opensFence(line: string): Fence | undefined {
  const match = FENCE_OPEN.exec(line);
  if (!match?.[1]) return undefined;
  const marker = match[1];
  // A backtick fence's info string may not contain a backtick (that would be inline code).
  if (marker[0] === "`" && line.slice(match[0].length).includes("`")) return undefined;
  return { char: marker[0] ?? "`", length: marker.length };
}

export function closesFence(line: string, fence: Fence): boolean {
  const trimmed = line.trim();
  if (trimmed.length < fence.length) return false;
  for (const ch of trimmed) if (ch !== fence.char) return false;
  return true;
}

export function splitBlocks(text: string): string[] {
  return splitSettled(text).blocks;
}

export interface SplitBlocks {
  blocks: string[];
  /** How many leading blocks no text appended to `text` can change. */
  settled: number;
  /**
   * Where the first unsettled block starts in `text`: splitting `text.slice(settledEnd)` gives
   * the remaining blocks exactly (the scan state is fresh at a block's first line).
   */
  settledEnd: number;
}

/**
 * `splitBlocks`, plus which blocks are settled. A block is settled once the next one has begun
 * on a complete line: whether that line starts a new block or continues a list depends only on
 * the line itself, and a line still being streamed may yet turn into a list item ("1" -> "1.").
 */
export function splitSettled(text: string): SplitBlocks {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: Fence | undefined;
  let sawList = false;
  let blanks = 0;
  let settled = 0;
  let settledEnd = 0;

  for (let at = 0; at <= text.length;) {
    const nl = text.indexOf("\n", at);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(at, end);
    const lineStart = at;
    at = end + 1;
    if (fence) {
      current.push(line);
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    if (line.trim() === "") {
      if (current.length > 0) blanks++;
      continue;
    }
    if (blanks > 0) {
      if (sawList && (LIST_ITEM.test(line) || INDENTED.test(line))) {
        for (let i = 0; i < blanks; i++) current.push("");
      } else {
        blocks.push(current.join("\n"));
        current = [];
        sawList = false;
        if (nl !== -1) {
          settled = blocks.length;
          settledEnd = lineStart;
        }
      }
      blanks = 0;
    }
    current.push(line);
    if (LIST_ITEM.test(line)) sawList = true;
    fence = opensFence(line);
  }
  if (current.length > 0) blocks.push(current.join("\n"));
  return { blocks, settled, settledEnd };
}
