// A page of a file too big to hold: the file is streamed once in 1 MB chunks. Lines before the
// page are only counted (newline bytes, never decoded), the page's lines are kept (each cut to a
// bounded length), and the rest is counted and hashed (so edits can tell whether the file
// changed since), never kept. Memory stays at a chunk and a page whatever the file's size.
import { createHash } from "node:crypto";
import type fs from "node:fs";

const CHUNK = 1 << 20;

export interface Slice {
  /** The page's lines from `first`, undecoded line ends removed ("\r" kept, as for whole files). */
  lines: string[];
  /** Lines in the file. */
  total: number;
  /** sha256 of the whole file (read-state.ts). */
  hash: string;
  binary: boolean;
}

/**
 * Lines `first`… of the open `file` (1-based), at most `limit` of them and about `maxChars` characters;
 * each kept line holds at most `maxLineBytes` bytes (the caller marks longer ones as cut).
 */
export async function readSlice(
  file: fs.promises.FileHandle,
  first: number,
  limit: number,
  maxChars: number,
  maxLineBytes: number,
  signal?: AbortSignal,
): Promise<Slice> {
  const hash = createHash("sha256");
  const lines: string[] = [];
  let line = 1;
  let chars = 0;
  let keeping = false;
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let endsWithNewline = true;
  let seenAny = false;
  let atStart = true;
  const decoder = new TextDecoder("utf-8");
  // The caller closes the handle (it opened it, checked, with regular-file.ts).
  const stream = file.createReadStream({ highWaterMark: CHUNK, signal, autoClose: false });
  const wanted = () => line >= first && lines.length < limit && (lines.length === 0 || chars < maxChars);
  const finishLine = () => {
    if (keeping) {
      let text = decoder.decode(Buffer.concat(partial));
      if (atStart && text.startsWith("\uFEFF")) text = text.slice(1);
      lines.push(text);
      chars += text.length + 8;
    }
    atStart = false;
    partial = [];
    partialBytes = 0;
    line++;
    keeping = wanted();
  };
  const keep = (bytes: Buffer): void => {
    const room = maxLineBytes - partialBytes;
    if (room <= 0) return;
    const part = bytes.length > room ? bytes.subarray(0, room) : bytes;
    partial.push(Buffer.from(part));
    partialBytes += part.length;
  };
  keeping = wanted();
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (!seenAny) {
      seenAny = true;
      if (chunk.subarray(0, 8000).includes(0)) {
        stream.destroy();
        return { lines: [], total: 0, hash: "", binary: true };
      }
    }
    hash.update(chunk);
    endsWithNewline = chunk[chunk.length - 1] === 10;
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl !== -1; nl = chunk.indexOf(10, from)) {
      if (keeping) keep(chunk.subarray(from, nl));
      finishLine();
      from = nl + 1;
    }
    if (keeping && from < chunk.length) keep(chunk.subarray(from));
  }
  // A last line without a newline is a line; an empty file has none.
  if (seenAny && !endsWithNewline) finishLine();
  return { lines, total: line - 1, hash: hash.digest("hex"), binary: false };
}
