/**
 * Split markdown into top-level blocks that render the same alone as inside the whole document,
 * so each can be rendered and cached on its own. A cheap line scan, not a parse:
 * - blank lines outside a ``` / ~~~ fence end a block;
 * - once a block holds a list item, blank lines followed by another list item or an indented
 *   line do not end it (a loose list must stay one list, or an ordered one would be renumbered).
 * Known gap: a reference-style link whose definition sits in another block stays unresolved.
 */
const FENCE_OPEN = /^\s*(`{3,}|~{3,})/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])(?:\s|$)/;
const INDENTED = /^\s{2,}\S/;

interface Fence {
  char: string;
  length: number;
}

function opensFence(line: string): Fence | undefined {
  const match = FENCE_OPEN.exec(line);
  if (!match?.[1]) return undefined;
  const marker = match[1];
  // A backtick fence's info string may not contain a backtick (that would be inline code).
  if (marker[0] === "`" && line.slice(match[0].length).includes("`")) return undefined;
  return { char: marker[0] ?? "`", length: marker.length };
}

function closesFence(line: string, fence: Fence): boolean {
  const trimmed = line.trim();
  if (trimmed.length < fence.length) return false;
  for (const ch of trimmed) if (ch !== fence.char) return false;
  return true;
}

export function splitBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: Fence | undefined;
  let sawList = false;
  let blanks = 0;

  for (const line of text.split("\n")) {
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
      }
      blanks = 0;
    }
    current.push(line);
    if (LIST_ITEM.test(line)) sawList = true;
    fence = opensFence(line);
  }
  if (current.length > 0) blocks.push(current.join("\n"));
  return blocks;
}
