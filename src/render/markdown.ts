/**
 * Markdown -> terminal lines, wrapped to a width. The engine (marked-terminal and friends) is
 * loaded lazily by `loadMarkdown()`; until then text is shown plain, sanitized and wrapped.
 */
import { splitSettled } from "./blocks.js";
import { Lru } from "./lru.js";
import { type CutState, lastCut, startState } from "./open-block.js";
import { keepOnlySgr, sanitize } from "./sanitize.js";
import { displayWidth, wrapLine, wrapText } from "./wrap.js";

type Engine = typeof import("./markdown-engine.js");

// eslint-disable-next-line no-restricted-syntax -- a cache: the engine module, loaded on first use
let engine: Engine | undefined;
// eslint-disable-next-line no-restricted-syntax -- a cache: the engine module, loaded on first use
let loading: Promise<boolean> | undefined;

/**
 * One document's rendering so far: the lines of its settled blocks (which text appended later
 * cannot change) and the text they came from. Kept per document, not in one shared cache of
 * blocks: a long answer has more blocks than any shared cache would hold, and a repaint walks
 * them in order, so an LRU would evict each block just before it is needed again.
 */
interface MarkdownDoc {
  width: number;
  styled: boolean;
  /** The settled prefix of the text, rendered into `lines`. */
  settledText: string;
  lines: string[];
  /** The last block while it streams, rendered piece by piece (open-block.ts). */
  open?: OpenBlock;
}

interface OpenBlock {
  /** Where the block starts in the document's text. */
  start: number;
  /** The block's text up to the latest cut, rendered into `lines`. */
  frozen: string;
  lines: string[];
  state: CutState;
  /** What the piece after the cut starts with (a fence's opening line). */
  lead: string;
}

/**
 * The open block is cut again once this much of it follows the last cut: a repaint then renders
 * at most about this much of it. Tests lower it to cut small documents often.
 */
export const streamTuning = { cutAfterChars: 2048 };

/** Documents being streamed or recently shown, by the caller's key (an entry id). */
const docs = new Lru<string | number, MarkdownDoc>(64);
/**
 * Rendered blocks by width and text, across documents: a block that repeats (a resumed session,
 * a template answer) is rendered once. A miss costs only that one block's render.
 */
const blocks = new Lru<string, readonly string[]>(2_000);

/**
 * Load the markdown engine (slow to import: call it after the first paint). Resolves to true once
 * loaded; to false if it could not be loaded (rendering then stays plain). Never rejects.
 */
export function loadMarkdown(): Promise<boolean> {
  loading ??= import("./markdown-engine.js").then(
    (loaded) => {
      engine = loaded;
      blocks.clear();
      warmUp();
      return true;
    },
    () => {
      loading = undefined;
      return false;
    },
  );
  return loading;
}

/**
 * The first render pays for more than its text: marked's and highlight.js's lazily compiled
 * regexes, the grammar of the language met, cold code: 276-395 ms for a 1 KB answer, ~45 ms
 * after this warm-up (which runs while the app waits for the worker and the model). Kept small:
 * warming wrap-ansi, string-width and more grammars too saved ~40 ms more but kept ~5 MB more
 * resident while idle.
 */
const WARM_UP = [
  "# Heading",
  "",
  "Some **bold**, *italic*, `code` and a [link](https://example.com).",
  "",
  "- an item",
  "",
  '```ts\nconst x = f("s", 1); // c\n```',
].join("\n");

function warmUp(): void {
  try {
    renderMarkdown(WARM_UP, 80);
  } catch {
    // Only a warm-up: a real render reports its own failure.
  }
}

export function markdownReady(): boolean {
  return engine !== undefined;
}

/** Code in its language's colours once the engine has loaded; as it is before, or for unknown languages. */
export function highlight(code: string, lang: string): string {
  return engine ? engine.highlightCode(code, lang) : code;
}

function columns(width: number): number {
  return Number.isFinite(width) ? Math.max(1, Math.floor(width)) : 80;
}

// List items wrap under their text, not under the bullet.
const BULLET = /^( *)(?:[•◦▪] |\d+\. +)/;

// Quote bars (markdown-engine.ts), one per level, each "│ " in its colour.
const QUOTE_BARS = /^(?:\x1b\[[0-9;]*m│\x1b\[[0-9;]*m )+/;

function wrapRendered(line: string, width: number): string[] {
  const bars = QUOTE_BARS.exec(line);
  if (bars) {
    const prefix = bars[0];
    const room = width - displayWidth(prefix);
    if (room < 8) return wrapLine(line, width);
    return wrapRendered(line.slice(prefix.length), room).map((l) => prefix + l);
  }
  const bullet = BULLET.exec(line);
  if (!bullet) return wrapLine(line, width);
  const prefix = bullet[0];
  if (prefix.length * 2 > width) return wrapLine(line, width);
  const [first = "", ...rest] = wrapLine(line.slice(prefix.length), width - prefix.length);
  const hang = " ".repeat(prefix.length);
  return [prefix + first, ...rest.map((l) => hang + l)];
}

function trimBlankEnds(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]?.trim() === "") start++;
  while (end > start && lines[end - 1]?.trim() === "") end--;
  return lines.slice(start, end);
}

function renderSanitized(clean: string, width: number): string[] {
  if (!engine) return wrapText(clean, width);
  let styled: string;
  try {
    styled = engine.renderStyled(clean, width);
  } catch {
    return wrapText(clean, width);
  }
  const lines = keepOnlySgr(styled).split("\n");
  return trimBlankEnds(lines).flatMap((line) => wrapRendered(line, width));
}

/**
 * Render a whole markdown document to lines no wider than `width`: headings without `#`, bold and
 * italic without markers, lists, tables (fitted or cut to the width), links as `text (url)`,
 * highlighted code blocks. The text is sanitized first, so the only escape sequences in the
 * result are our own SGR styles. Before `loadMarkdown()` has finished: plain wrapped text.
 */
export function renderMarkdown(text: string, width: number): string[] {
  return renderSanitized(sanitize(text), columns(width));
}

function renderBlock(block: string, width: number): readonly string[] {
  const key = `${width}\u0000${block}`;
  const hit = blocks.get(key);
  if (hit) return hit;
  const lines = renderMarkdown(block, width);
  blocks.set(key, lines);
  return lines;
}

function appendBlock(out: string[], lines: readonly string[]): void {
  if (lines.length === 0) return;
  if (out.length > 0) out.push("");
  for (const line of lines) out.push(line);
}

/**
 * Same result as `renderMarkdown` for normal documents, but rendered block by block, and
 * incrementally per `key`: when the text grows by appending (a streaming answer), blocks that
 * were settled before are never rendered again; only the open block at the end is. A different
 * text, width or engine state under the same key starts over.
 */
export function renderMarkdownCached(
  text: string,
  width: number,
  key: string | number = "",
  /** The text is still streaming: its open block changes with each delta. */
  growing = false,
): string[] {
  const cols = columns(width);
  const styled = engine !== undefined;
  let doc = docs.get(key);
  if (!doc || doc.width !== cols || doc.styled !== styled || !text.startsWith(doc.settledText)) {
    doc = { width: cols, styled, settledText: "", lines: [] };
    docs.set(key, doc);
  }
  const base = doc.settledText.length;
  const split = splitSettled(text.slice(base));
  for (let i = 0; i < split.settled; i++) appendBlock(doc.lines, renderBlock(split.blocks[i] ?? "", cols));
  if (split.settled > 0) doc.settledText = text.slice(0, base + split.settledEnd);
  const out = doc.lines.slice();
  for (let i = split.settled; i < split.blocks.length; i++) {
    const block = split.blocks[i] ?? "";
    if (!growing) appendBlock(out, renderBlock(block, cols));
    // The first unsettled block is the one that grows: a block after it began on a line still
    // being streamed, which may yet join it ("3" -> "3." continues a list above).
    else if (i === split.settled) appendBlock(out, renderOpen(doc, base + split.settledEnd, block));
    else appendBlock(out, renderMarkdown(block, cols));
  }
  if (!growing) doc.open = undefined;
  return out;
}

/** The streaming last block: pieces before its latest cut are kept; only the rest is rendered. */
function renderOpen(doc: MarkdownDoc, start: number, block: string): string[] {
  let open = doc.open;
  if (!open || open.start !== start || !block.startsWith(open.frozen)) {
    open = { start, frozen: "", lines: [], state: startState(), lead: "" };
    doc.open = open;
  }
  if (block.length - open.frozen.length >= streamTuning.cutAfterChars) {
    const cut = lastCut(block, open.frozen.length, open.state);
    if (cut) {
      // The piece ends before the newline that precedes the cut.
      for (const line of renderMarkdown(open.lead + block.slice(open.frozen.length, cut.at - 1), doc.width)) {
        open.lines.push(line);
      }
      open.frozen = block.slice(0, cut.at);
      open.state = cut.state;
      open.lead = cut.lead;
    }
  }
  const tail = renderMarkdown(open.lead + block.slice(open.frozen.length), doc.width);
  return open.lines.length === 0 ? tail : open.lines.concat(tail);
}
