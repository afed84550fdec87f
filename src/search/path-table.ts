// A million paths as typed arrays: their UTF-8 bytes end to end in 4 MB blocks, where each one
// starts and how long it is. 6 bytes per path beyond its own, against ~60 for a JS string each;
// scoring reads the bytes directly. Folders are entries too, ending in "/". The blocks are never
// regrown: a doubling array would leave its old copies behind, and the allocator keeps such
// freed memory as the process's (a million paths left ~75 MB of it).

const decoder = new TextDecoder();

export const BLOCK_BITS = 22;
const BLOCK = 1 << BLOCK_BITS;
export const BLOCK_MASK = BLOCK - 1;

export class PathTable {
  blocks: Uint8Array[] = [];
  /** Where path i starts: its block (the high bits, BLOCK_BITS up) and its offset there. */
  starts = new Uint32Array(1 << 12);
  lens = new Uint16Array(1 << 12);
  count = 0;
  /** Bytes used in the last block. */
  private fill = BLOCK;
  /** Folders already added (by their path with "/"), so each is listed once. */
  private readonly dirs = new Set<string>();
  /** The previous file's path: the folders it shares with the next one need no lookup. */
  private last = new Uint8Array(256);
  private lastLen = 0;

  /** Bytes held: the blocks' bytes in use, and the offset and length arrays at their capacity. */
  get byteSize(): number {
    const blocks = Math.max(0, this.blocks.length - 1) * BLOCK + (this.blocks.length ? this.fill : 0);
    return blocks + this.starts.byteLength + this.lens.byteLength;
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
    if (len > 0xffff) return; // no file system has paths this long
    if (this.fill + len > BLOCK) {
      // Pages of a new block that are never written are never resident.
      this.blocks.push(new Uint8Array(BLOCK));
      this.fill = 0;
    }
    if (this.count + 1 > this.starts.length) {
      const starts = new Uint32Array(this.starts.length * 2);
      starts.set(this.starts);
      this.starts = starts;
      const lens = new Uint16Array(this.lens.length * 2);
      lens.set(this.lens);
      this.lens = lens;
    }
    this.blocks[this.blocks.length - 1]!.set(src.subarray(from, to), this.fill);
    this.starts[this.count] = ((this.blocks.length - 1) << BLOCK_BITS) | this.fill;
    this.lens[this.count] = len;
    this.count++;
    this.fill += len;
  }

  /** The block holding path i, and where the path is in it. */
  at(i: number): { text: Uint8Array; start: number; end: number } {
    const s = this.starts[i]!;
    const start = s & BLOCK_MASK;
    return { text: this.blocks[s >>> BLOCK_BITS]!, start, end: start + this.lens[i]! };
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
    const { text, start, end } = this.at(i);
    return decoder.decode(text.subarray(start, end));
  }

  /** Drops what only building needed (the arrays keep their room: a copy would be garbage of their size). */
  seal(): void {
    this.dirs.clear();
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
