// A file as text for the edit tools, and back to the same bytes. Every byte an edit did not
// change is written back as it was: the encoding (a file that is not UTF-8 is read as Latin-1,
// one character per byte, so it round-trips exactly), a BOM, the line endings and a missing
// final newline. The edit tools match and replace on `lf` (line ends as "\n") and splice the
// result into the original text, so lines they did not touch keep their own endings.

export interface FileText {
  /** The decoded text as it is on disk (BOM removed). */
  raw: string;
  /** `raw` with every "\r\n" as "\n": what edits match against. */
  lf: string;
  encoding: "utf8" | "latin1";
  bom: boolean;
  /** The file's own line ending (the more common one): what new lines are written with. */
  eol: "\n" | "\r\n";
  /** Offsets in `lf` of the "\n"s that are "\r\n" in `raw`, ascending. */
  crlfAt: number[];
}

// ignoreBOM: keep a BOM in the text (the decoder would drop it), so it is seen and written back.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function decodeFile(buf: Uint8Array): FileText {
  let encoding: FileText["encoding"] = "utf8";
  let text: string;
  try {
    text = UTF8.decode(buf);
  } catch {
    encoding = "latin1";
    text = Buffer.from(buf).toString("latin1");
  }
  const bom = text.startsWith("\uFEFF");
  return fileTextOf(bom ? text.slice(1) : text, encoding, bom);
}

/** The FileText of a decoded text (after an edit, for the next edit of a multi_edit). */
export function fileTextOf(raw: string, encoding: FileText["encoding"], bom: boolean): FileText {
  const crlfAt: number[] = [];
  let lf = "";
  let from = 0;
  for (let i = raw.indexOf("\r\n"); i !== -1; i = raw.indexOf("\r\n", i + 2)) {
    lf += raw.slice(from, i);
    crlfAt.push(lf.length);
    lf += "\n";
    from = i + 2;
  }
  lf += raw.slice(from);
  const lfCount = (lf.match(/\n/g)?.length ?? 0) - crlfAt.length;
  return { raw, lf, encoding, bom, eol: crlfAt.length > lfCount ? "\r\n" : "\n", crlfAt };
}

/** A model's text with its line ends as "\n" (what it writes may carry "\r\n"). */
export function toLf(text: string): string {
  return text.replace(/\r\n/g, "\n");
}

/** The offset in `raw` of offset `at` in `lf`. */
function rawOffset(file: FileText, at: number): number {
  let n = 0;
  while (n < file.crlfAt.length && file.crlfAt[n]! < at) n++;
  return at + n;
}

export interface Splice {
  /** [start, end) in `lf`. */
  start: number;
  end: number;
  /** The new text, line ends as "\n". */
  text: string;
}

/**
 * The file's new text: each splice (non-overlapping, on `lf`) replaces its span of the original,
 * new line ends written in the file's own style. Untouched text keeps its bytes.
 */
export function applySplices(file: FileText, splices: readonly Splice[]): string {
  const sorted = [...splices].sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const s of sorted) {
    const start = rawOffset(file, s.start);
    out += file.raw.slice(at, start) + (file.eol === "\n" ? s.text : s.text.replace(/\n/g, "\r\n"));
    at = rawOffset(file, s.end);
  }
  return out + file.raw.slice(at);
}

/** Bytes of a new text in the file's encoding, or why it cannot be written so. */
export function encodeFile(
  file: Pick<FileText, "encoding" | "bom">,
  text: string,
): { ok: true; bytes: Buffer } | { ok: false; error: string } {
  const full = file.bom ? `\uFEFF${text}` : text;
  if (file.encoding === "utf8") return { ok: true, bytes: Buffer.from(full, "utf8") };
  const wide = [...new Set([...full].filter((c) => c.charCodeAt(0) > 0xff))];
  if (wide.length > 0) {
    return {
      ok: false,
      error:
        `the file is not UTF-8 (it is kept in its own single-byte encoding) and cannot hold ` +
        `${wide.slice(0, 5).join(" ")}; write those characters differently`,
    };
  }
  return { ok: true, bytes: Buffer.from(full, "latin1") };
}
