/**
 * Markdown -> terminal lines, wrapped to a width. The engine (marked-terminal and friends) is
 * loaded lazily by `loadMarkdown()`; until then text is shown plain, sanitized and wrapped.
 */
import { splitBlocks } from "./blocks.js";
import { Lru } from "./lru.js";
import { keepOnlySgr, sanitize } from "./sanitize.js";
import { wrapLine, wrapText } from "./wrap.js";

type Engine = typeof import("./markdown-engine.js");

let engine: Engine | undefined;
let loading: Promise<boolean> | undefined;

const BLOCK_CACHE_SIZE = 2_000;
const blockCache = new Lru<string, readonly string[]>(BLOCK_CACHE_SIZE);

/**
 * Load the markdown engine (slow to import: call it after the first paint). Resolves to true once
 * loaded; to false if it could not be loaded (rendering then stays plain). Never rejects.
 */
export function loadMarkdown(): Promise<boolean> {
  loading ??= import("./markdown-engine.js").then(
    (loaded) => {
      engine = loaded;
      blockCache.clear();
      return true;
    },
    () => {
      loading = undefined;
      return false;
    },
  );
  return loading;
}

export function markdownReady(): boolean {
  return engine !== undefined;
}

function columns(width: number): number {
  return Number.isFinite(width) ? Math.max(1, Math.floor(width)) : 80;
}

// List items wrap under their text, not under the bullet.
const BULLET = /^( *)(?:\* |\d+\. )/;

function wrapRendered(line: string, width: number): string[] {
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
  const hit = blockCache.get(key);
  if (hit) return hit;
  const lines = renderMarkdown(block, width);
  blockCache.set(key, lines);
  return lines;
}

/**
 * Same result as `renderMarkdown` for normal documents, but rendered block by block with each
 * block's lines memoised per width, so re-rendering a streaming answer only renders its last,
 * still-growing block again.
 */
export function renderMarkdownCached(text: string, width: number): string[] {
  const cols = columns(width);
  const out: string[] = [];
  for (const block of splitBlocks(text)) {
    const lines = renderBlock(block, cols);
    if (lines.length === 0) continue;
    if (out.length > 0) out.push("");
    out.push(...lines);
  }
  return out;
}
