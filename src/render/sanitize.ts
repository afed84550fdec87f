import { displayWidth } from "./wrap.js";

/**
 * Text from the model, from files and from commands must never drive the terminal. Every
 * control character is turned into visible text, so the only ESC in what we paint is the SGR
 * styling we add ourselves afterwards:
 *
 * - C0 controls (0x00-0x1f except \n and \t) become their Unicode control pictures
 *   (ESC -> ␛, BEL -> ␇, NUL -> ␀ ...); DEL (0x7f) becomes ␡. An escape sequence therefore
 *   shows as `␛` followed by the rest of it literally: `\x1b[2J` -> `␛[2J`,
 *   `\x1b]52;c;aGk=\x07` -> `␛]52;c;aGk=␇`.
 * - C1 controls (0x80-0x9f, e.g. the one-byte CSI 0x9b) become the text `\x9b`.
 * - \r\n becomes \n; a lone \r (progress bars redrawing a line) is dropped.
 * - A tab expands to spaces up to the next tab stop; stops are every 4 columns, counted in
 *   display columns from the start of the line (wide characters count 2).
 */
export const TAB_STOP = 4;

// Everything but \n in C0, plus DEL and C1; \t (0x09) and \r (0x0d) are in the range.
const NEEDS_WORK = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

function visibleControl(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `\\x${code.toString(16)}`;
}

function expandTabs(line: string): string {
  if (!line.includes("\t")) return line;
  const parts = line.split("\t");
  let out = parts[0] ?? "";
  let column = displayWidth(out);
  for (let i = 1; i < parts.length; i++) {
    const pad = TAB_STOP - (column % TAB_STOP);
    const part = parts[i] ?? "";
    out += " ".repeat(pad) + part;
    column += pad + displayWidth(part);
  }
  return out;
}

export function sanitize(text: string): string {
  // Fast path: most text has no controls, no tabs and only \n line ends.
  if (!NEEDS_WORK.test(text)) return text;
  const unified = text.replace(/\r\n/g, "\n").replace(/\r/g, "");
  const visible = unified.replace(CONTROL, visibleControl);
  if (!visible.includes("\t")) return visible;
  return visible.split("\n").map(expandTabs).join("\n");
}

// ESC not starting an SGR sequence, and every other control except \n.
const NOT_SGR = /\x1b(?!\[[0-9;]*m)|[\x00-\x09\x0b-\x1a\x1c-\x1f\x7f-\x9f]/g;

/**
 * A last guard for text that already carries our own SGR styling (rendered markdown): SGR
 * sequences stay, any other control is made visible as in `sanitize` (tabs too, as ␉).
 */
export function keepOnlySgr(styled: string): string {
  return styled.replace(NOT_SGR, visibleControl);
}

/** `sanitize` for text shown on one line (a label, a title): line breaks become spaces. */
export function sanitizeLine(text: string): string {
  return sanitize(text).replace(/\n/g, " ");
}

// C1 controls survive JSON.stringify (only C0 is escaped), and a terminal may obey them.
const C1 = /[\x80-\x9f]/g;

/**
 * One line of JSON for a terminal or a pipe: JSON.stringify already escapes C0 controls (ESC
 * becomes \u001b), and C1 controls are escaped here too, so the data stays exact and inert.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(C1, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Characters that change what a line seems to say without showing: bidi embeddings, overrides and
 * isolates (Trojan Source, CVE-2021-42574), zero-width and joiner characters, invisible operators,
 * the BOM, the soft hyphen, Mongolian vowel separator, and Unicode tag characters.
 */
const INVISIBLE =
  /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/gu;

/**
 * For what the user approves: each invisible character as `<U+202E>`, and a carriage return as `␍`
 * (sanitize would drop it; a terminal would move the cursor back over what was shown). In file
 * content a `\r\n` line end stays a line end (`allCr` false); in a command every `\r` is shown.
 * `found` says whether anything was revealed, for a warning.
 */
export function revealInvisible(text: string, allCr: boolean): { text: string; found: boolean } {
  let found = false;
  const cr = allCr ? /\r/g : /\r(?!\n)/g;
  const out = text
    .replace(cr, () => {
      found = true;
      return "␍";
    })
    .replace(INVISIBLE, (ch) => {
      found = true;
      return `<U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`;
    });
  return { text: out, found };
}
