// OSC 8 hyperlinks (https://gist.github.com/egmontkob/eb114294efbcd5adb1944c9f3cb5feda): view wraps
// the URLs and file paths of the transcript's lines in them, where the terminal shows links; the
// painter takes them out again before blessed sees the line (blessed counts every character as a
// cell) and writes each link over its cells after the frame. Pure: both sides are plain strings.
import path from "node:path";
import stringWidth from "string-width";

const OPEN = "\x1b]8;;";
const ST = "\x1b\\";
const SGR = /\x1b\[[0-9;]*m/g;
/**
 * A URL, or a path that names a file: with a folder (`src/a.ts`, `./x`, `/etc/hosts`) or a file
 * name with an extension, optionally `:line[:col]`. The characters around must not continue a word.
 */
const TOKEN =
  /(?<![\w/.@~-])(?:(https?:\/\/[^\s<>"'`\x00-\x1f\x7f]+[^\s<>"'`\x00-\x1f\x7f.,;:!?)\]}])|((?:\.{1,2}\/|\/)(?:[\w@+-][\w.@+-]*\/)*[\w@+-][\w.@+-]*|(?:[\w@+-][\w.@+-]*\/)+[\w@+-][\w.@+-]*|[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,9})(?::(\d+)(?::\d+)?)?)(?![\w/@-])/g;

export interface LinkBase {
  /** The project folder: relative paths are resolved against it. */
  cwd: string;
  /** This machine's name, in file URLs (the spec asks for it, so a remote shell's links are not opened here). */
  host: string;
}

/** A link's target for a file: kitty's form, `#line` when known (kitty's open-actions read it). */
export function fileUrl(file: string, line: number | undefined, base: LinkBase): string {
  const abs = path.posix.resolve(base.cwd, file);
  const encoded = abs
    .split("/")
    .map((part) => encodeURIComponent(part))
    .join("/");
  return `file://${base.host}${encoded}${line ? `#${line}` : ""}`;
}

/** `text` as an OSC 8 link to `url`. */
export function hyperlink(url: string, text: string): string {
  return `${OPEN}${url}${ST}${text}${OPEN}${ST}`;
}

/** The line with its URLs and file paths as links; escape sequences are left alone. */
export function linkify(line: string, base: LinkBase): string {
  if (!/[/.]/.test(line)) return line;
  let out = "";
  let last = 0;
  for (const sgr of line.matchAll(SGR)) {
    out += linkifyText(line.slice(last, sgr.index), base) + sgr[0];
    last = sgr.index + sgr[0].length;
  }
  return out + linkifyText(line.slice(last), base);
}

function linkifyText(text: string, base: LinkBase): string {
  return text.replace(TOKEN, (whole, url: string | undefined, file: string | undefined, line: string | undefined) => {
    if (url) return hyperlink(url, whole);
    if (!file || !looksLikeFile(file)) return whole;
    return hyperlink(fileUrl(file, line ? Number(line) : undefined, base), whole);
  });
}

/** Not a version (1.2.3), a number (3.14) or a domain-looking word without a folder or a known shape. */
function looksLikeFile(token: string): boolean {
  if (/^[\d.]+$/.test(token)) return false;
  if (token.includes("/")) return !/^\/+$/.test(token) && !token.startsWith("//");
  // A bare name: a name part that is not a number, and an extension of two or more (not "e.g").
  return /^[\w-]*[A-Za-z_][\w-]*(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]+$/.test(token);
}

export interface LinkSpan {
  /** The cell the link starts in. */
  col: number;
  /** The link's text with the colours in force at its start, ready to write over its cells. */
  text: string;
  url: string;
}

const LINK = /\x1b\]8;[^;\x07\x1b]*;([^\x07\x1b]*)(?:\x1b\\|\x07)/g;

/** The line without its links (for blessed) and where each link sits in it. */
export function takeLinks(line: string): { plain: string; spans: LinkSpan[] } {
  if (!line.includes(OPEN)) return { plain: line, spans: [] };
  let plain = "";
  const spans: LinkSpan[] = [];
  let open: { col: number; from: number; url: string; sgr: string } | null = null;
  let last = 0;
  for (const m of line.matchAll(LINK)) {
    plain += line.slice(last, m.index);
    last = m.index + m[0].length;
    const url = m[1]!;
    if (open) {
      const text = plain.slice(open.from);
      if (text) spans.push({ col: open.col, text: open.sgr + text, url: open.url });
      open = null;
    }
    if (url) open = { col: stringWidth(plain), from: plain.length, url, sgr: sgrInForce(plain) };
  }
  plain += line.slice(last);
  if (open) {
    const text = plain.slice(open.from);
    if (text) spans.push({ col: open.col, text: open.sgr + text, url: open.url });
  }
  return { plain, spans };
}

/** The SGR sequences since the last reset: what colours the text after `before` starts with. */
function sgrInForce(before: string): string {
  let codes = "";
  for (const m of before.matchAll(SGR)) codes = m[0] === "\x1b[0m" || m[0] === "\x1b[m" ? "" : codes + m[0];
  return codes;
}
