/**
 * Where the block still being streamed may be cut into pieces that each render, alone, as they
 * look inside the whole block: then a repaint renders only the piece after the last cut, not the
 * whole block again (a 400 KB code block would otherwise be re-rendered on every frame).
 *
 * A cut goes only where the lines on both sides continue one structure:
 * - inside a fence: between two non-blank code lines; the piece after it starts with the fence's
 *   opening line, so it is code in the same language;
 * - in a list: before a top-level item, once the list has begun;
 * - in a quote: between two quoted lines;
 * - in a paragraph: between two plain lines of text (nothing a line could start a new structure
 *   with, so no blank line appears or vanishes between the pieces).
 * Never in a table (its columns fit all its rows) or an HTML block. What a later line can still
 * change above a cut (a setext underline, an emphasis closed on a later line, a list growing from
 * item 9 to 10) is set right when the block closes: the caller then renders the block whole.
 */
import { closesFence, type Fence, LIST_ITEM, opensFence } from "./blocks.js";

export interface CutState {
  /** The fence the scan is in and its opening line; cuts inside only in a fence at the top level. */
  fence?: { marker: Fence; opener: string; cuttable: boolean };
  list: boolean;
  quote: boolean;
  /** A table or HTML block: no cuts from here on. */
  stuck: boolean;
  /** The previous line: blank, and plain paragraph text. */
  prevBlank: boolean;
  prevPlain: boolean;
}

export const startState = (): CutState => ({
  list: false,
  quote: false,
  stuck: false,
  prevBlank: false,
  prevPlain: false,
});

/**
 * Added to the info string of a fence reopened for a later piece: the code renderer shows the
 * language label once, above the block's first piece, so the pieces add up to the one-shot render.
 */
export const CONTINUED_FENCE = "agent0-continued";

export interface Cut {
  /** Offset in the block of the line the next piece starts with. */
  at: number;
  state: CutState;
  /** Put before the next piece's text so that it renders as part of the block (a fence's opening). */
  lead: string;
}

const TOP_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:\s|$)/;
const QUOTED = /^>\s*\S/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
// Text that starts nothing but a paragraph line: not a heading, quote, fence, HTML, list, rule,
// setext underline or table row, and not indented (a continuation or code).
const PLAIN = /^[^\s#>`~<|=*+_-]/;

function plain(line: string): boolean {
  return PLAIN.test(line) && !LIST_ITEM.test(line) && !line.includes("|");
}

function cutAllowed(state: CutState, line: string): boolean {
  if (state.stuck) return false;
  const blank = line.trim() === "";
  if (state.fence) {
    return state.fence.cuttable && !blank && !state.prevBlank && !closesFence(line, state.fence.marker);
  }
  if (state.list) return TOP_ITEM.test(line);
  if (state.quote) return QUOTED.test(line) && !state.prevBlank;
  return state.prevPlain && plain(line);
}

function advance(state: CutState, line: string, first: boolean): void {
  const blank = line.trim() === "";
  if (state.fence) {
    if (closesFence(line, state.fence.marker)) state.fence = undefined;
    state.prevPlain = false;
  } else {
    const marker = opensFence(line);
    // A fence inside a list item belongs to the item: cut pieces of it would lose the indent.
    if (marker) state.fence = { marker, opener: line, cuttable: !state.list && !/^\s/.test(line) };
    if (LIST_ITEM.test(line)) state.list = true;
    if (first && line.startsWith(">")) state.quote = true;
    if ((first && line.startsWith("<")) || (line.includes("|") && TABLE_DELIMITER.test(line))) state.stuck = true;
    state.prevPlain = !marker && plain(line);
  }
  state.prevBlank = blank;
}

/**
 * The last cut in `block` after `from` (a line start whose scan state is `state`), before a
 * complete line: a line still being streamed may yet become something else ("1" -> "1.").
 */
export function lastCut(block: string, from: number, state: CutState): Cut | undefined {
  const scan: CutState = { ...state };
  let found: Cut | undefined;
  let at = from;
  for (;;) {
    const nl = block.indexOf("\n", at);
    if (nl === -1) break;
    const line = block.slice(at, nl);
    if (at > from && cutAllowed(scan, line)) {
      found = { at, state: { ...scan }, lead: scan.fence ? `${scan.fence.opener} ${CONTINUED_FENCE}\n` : "" };
    }
    advance(scan, line, at === 0);
    at = nl + 1;
  }
  return found;
}
