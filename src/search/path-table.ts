// A million paths as typed arrays: their UTF-8 bytes end to end in 4 MB blocks, where each one
// starts and how long it is, which characters it holds (a mask, so a query with a character a
// path lacks skips it unread) and the folder it is in (paths of one folder share what a scan of
// the folder found). 14 bytes per path beyond its own, against ~60 for a JS string each;
// scoring reads the bytes directly. Folders are entries too, ending in "/". The blocks are never
// regrown: a doubling array would leave its old copies behind, and the allocator keeps such
// freed memory as the process's (a million paths left ~75 MB of it).

const decoder = new TextDecoder();

export const BLOCK_BITS = 22;
const BLOCK = 1 << BLOCK_BITS;
export const BLOCK_MASK = BLOCK - 1;
/** The parent of a path at the top of the project. */
export const NO_PARENT = 0xffffffff;

/**
 * One bit per character class, case folded: a–z one each, digits in two halves, "/", ".", the
 * other separators, and everything else. A path can hold a query only if its mask holds the query's.
 */
export const CHAR_BIT = new Uint32Array(256).map((_, b) => {
  const c = b >= 65 && b <= 90 ? b + 32 : b;
  if (c >= 97 && c <= 122) return 1 << (c - 97);
  if (c >= 48 && c <= 52) return 1 << 26;
  if (c >= 53 && c <= 57) return 1 << 27;
  if (c === 47) return 1 << 28;
  if (c === 46) return 1 << 29;
  if (c === 95 || c === 45 || c === 32) return 1 << 30;
  return (1 << 31) >>> 0;
});

/** The mask of `bytes[from, to)`. */
export function charMask(bytes: Uint8Array, from: number, to: number): number {
  let mask = 0;
  for (let k = from; k < to; k++) mask |= CHAR_BIT[bytes[k]!]!;
  return mask >>> 0;
}

export class PathTable {
  blocks: Uint8Array[] = [];
  /** Where path i starts: its block (the high bits, BLOCK_BITS up) and its offset there. */
  starts = new Uint32Array(1 << 12);
  lens = new Uint16Array(1 << 12);
  /** Path i's charMask. */
  masks = new Uint32Array(1 << 12);
  /** The folder entry path i is directly in, or NO_PARENT. */
  parents = new Uint32Array(1 << 12);
  count = 0;
  /** Bytes used in the last block. */
  private fill = BLOCK;
  /** Folders already added (by their path with "/"), so each is listed once, and their entries. */
  private readonly dirs = new Map<string, number>();
  /** The previous file's path: the folders it shares with the next one need no lookup. */
  private last = new Uint8Array(256);
  private lastLen = 0;
  /** The entries of the previous file's folders, outermost first. */
  private lastChain: number[] = [];

  /** Bytes held: the blocks' bytes in use, and the per-path arrays at their capacity. */
  get byteSize(): number {
    const blocks = Math.max(0, this.blocks.length - 1) * BLOCK + (this.blocks.length ? this.fill : 0);
    return blocks + this.starts.byteLength + this.lens.byteLength + this.masks.byteLength + this.parents.byteLength;
  }

  /** Adds the path in `src[from, to)` (no trailing "/"), and each of its folders not seen yet. */
  addFile(src: Uint8Array, from: number, to: number): void {
    if (to <= from) return;
    // Listings come sorted (git) or folder by folder (rg): most folders are the previous path's.
    let common = 0;
    const max = Math.min(this.lastLen, to - from);
    while (common < max && this.last[common] === src[from + common]) common++;
    const chain = this.lastChain;
    let depth = 0;
    let parent = NO_PARENT;
    for (let k = from; k < to; k++) {
      if (src[k] !== 47) continue;
      if (k - from < common) {
        // A folder of the previous path too: its entry is the one at the same depth.
        parent = chain[depth++]!;
        continue;
      }
      // A folder: decoded only to look it up (a sorted listing meets each one many times in a row).
      const dir = decoder.decode(src.subarray(from, k + 1));
      let entry = this.dirs.get(dir);
      if (entry === undefined) {
        entry = this.push(src, from, k + 1, parent);
        this.dirs.set(dir, entry);
      }
      chain[depth++] = entry;
      parent = entry;
    }
    chain.length = depth;
    this.push(src, from, to, parent);
    if (this.last.length < to - from) this.last = new Uint8Array((to - from) * 2);
    this.last.set(src.subarray(from, to));
    this.lastLen = to - from;
  }

  /** Adds `src[from, to)` as an entry in `parent`; returns its number. */
  private push(src: Uint8Array, from: number, to: number, parent: number): number {
    const len = to - from;
    if (len > 0xffff) return NO_PARENT; // no file system has paths this long
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
      const masks = new Uint32Array(this.masks.length * 2);
      masks.set(this.masks);
      this.masks = masks;
      const parents = new Uint32Array(this.parents.length * 2);
      parents.set(this.parents);
      this.parents = parents;
    }
    this.blocks[this.blocks.length - 1]!.set(src.subarray(from, to), this.fill);
    this.starts[this.count] = ((this.blocks.length - 1) << BLOCK_BITS) | this.fill;
    this.lens[this.count] = len;
    this.masks[this.count] = charMask(src, from, to);
    this.parents[this.count] = parent;
    this.fill += len;
    return this.count++;
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
