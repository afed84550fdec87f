// A million paths as two typed arrays: their UTF-8 bytes end to end, and where each one starts.
// About 1.1 bytes of overhead per path beyond its bytes (4 for its offset), against ~60 for a JS
// string each; scoring reads the bytes directly. Folders are entries too, ending in "/".

const decoder = new TextDecoder();

export class PathTable {
  bytes = new Uint8Array(1 << 16);
  /** starts[i] is where path i begins; starts[count] where the next one will. */
  starts = new Uint32Array(1 << 12);
  count = 0;
  /** Folders already added (by their path with "/"), so each is listed once. */
  private readonly dirs = new Set<string>();
  /** The previous file's path: the folders it shares with the next one need no lookup. */
  private last = new Uint8Array(256);
  private lastLen = 0;

  get used(): number {
    return this.starts[this.count]!;
  }

  /** Bytes held (both arrays at their current capacity). */
  get byteSize(): number {
    return this.bytes.byteLength + this.starts.byteLength;
  }

  /** Adds the path in `src[from, to)` (no trailing "/"), and each of its folders not seen yet. */
  addFile(src: Uint8Array, from: number, to: number): void {
    if (to <= from) return;
    // Listings come sorted (git) or folder by folder (rg): most folders are the previous path's.
    let common = 0;
    const max = Math.min(this.lastLen, to - from);
    while (common < max && this.last[common] === src[from + common]) common++;
    for (let k = from; k < to; k++) {
      if (src[k] !== 47 || k - from < common) continue;
      // A folder: decoded only to look it up (a sorted listing meets each one many times in a row).
      const dir = decoder.decode(src.subarray(from, k + 1));
      if (this.dirs.has(dir)) continue;
      this.dirs.add(dir);
      this.push(src, from, k + 1);
    }
    this.push(src, from, to);
    if (this.last.length < to - from) this.last = new Uint8Array((to - from) * 2);
    this.last.set(src.subarray(from, to));
    this.lastLen = to - from;
  }

  private push(src: Uint8Array, from: number, to: number): void {
    const len = to - from;
    const at = this.used;
    if (at + len > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, at + len));
      grown.set(this.bytes.subarray(0, at));
      this.bytes = grown;
    }
    if (this.count + 2 > this.starts.length) {
      const grown = new Uint32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.bytes.set(src.subarray(from, to), at);
    this.count++;
    this.starts[this.count] = at + len;
  }

  /** Adds every NUL-separated path of `chunk`; returns the bytes of an unfinished last one. */
  addNulSeparated(chunk: Uint8Array): Uint8Array {
    let from = 0;
    for (let k = chunk.indexOf(0); k !== -1; k = chunk.indexOf(0, from)) {
      this.addFile(chunk, from, k);
      from = k + 1;
    }
    return chunk.subarray(from);
  }

  path(i: number): string {
    return decoder.decode(this.bytes.subarray(this.starts[i]!, this.starts[i + 1]!));
  }

  /** Drops what only building needed, and the arrays' spare room. */
  seal(): void {
    this.dirs.clear();
    this.bytes = this.bytes.slice(0, this.used);
    this.starts = this.starts.slice(0, this.count + 1);
  }
}

/** Joins what a stream cut mid-path with the next chunk. */
export function joinChunks(rest: Uint8Array, chunk: Uint8Array): Uint8Array {
  if (rest.length === 0) return chunk;
  const out = new Uint8Array(rest.length + chunk.length);
  out.set(rest);
  out.set(chunk, rest.length);
  return out;
}
