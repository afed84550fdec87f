import { joinTruncated } from "./output.js";

/**
 * Collects a stream of text in bounded memory. The result is exactly what
 * truncateOutput(all text, limit) would give, so a command printing gigabytes
 * costs no more than one printing `limit` characters.
 */
export class HeadTailBuffer {
  private full = "";
  private head = "";
  private tail = "";
  private total = 0;
  private overflowed = false;

  constructor(private readonly limit: number) {}

  push(chunk: string): void {
    this.total += chunk.length;
    if (!this.overflowed) {
      this.full += chunk;
      if (this.full.length <= this.limit) return;
      this.overflowed = true;
      this.head = this.full.slice(0, Math.floor(this.limit / 2));
      this.tail = this.full.slice(this.head.length);
      this.full = "";
    } else {
      this.tail += chunk;
    }
    const keep = Math.floor(this.limit / 4);
    // Trim lazily: slicing on every chunk would be quadratic.
    if (this.tail.length > 2 * keep + 65_536) this.tail = this.tail.slice(-keep);
  }

  text(): string {
    if (!this.overflowed) return this.full;
    const keep = Math.floor(this.limit / 4);
    const tail = keep > 0 ? this.tail.slice(-keep) : "";
    return joinTruncated(this.head, this.total - this.head.length - tail.length, tail);
  }
}
