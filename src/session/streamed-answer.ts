// The answer streaming now, saved while it streams: a crash keeps what came. A partial line is
// written at least every `everyMs`, or as soon as `everyChars` arrived unsaved; the message that
// ends the answer supersedes them.

/** A piece of an answer still streaming; `sync`: flushed to the disk, not only written. */
export type PartialLine = { kind: "partial"; text: string; thinking: string; sync: boolean };

export class StreamedAnswer {
  private text = "";
  private thinking = "";
  private timer: NodeJS.Timeout | undefined;
  private synced = 0;

  constructor(
    private readonly save: (line: PartialLine) => void,
    private readonly everyMs: number,
    private readonly everyChars: number,
  ) {}

  add(kind: "text" | "thinking", delta: string): void {
    if (kind === "text") this.text += delta;
    else this.thinking += delta;
    if (this.text.length + this.thinking.length >= this.everyChars) this.savePartial();
    else this.timer ??= unref(setTimeout(() => this.savePartial(), this.everyMs));
  }

  /** The process ends: what streamed is kept whole, as no message will come to supersede it. */
  saveAll(): void {
    if (this.text || this.thinking)
      this.save({ kind: "partial", text: this.text, thinking: this.thinking, sync: true });
  }

  /** The streamed answer is over: its message (or nothing) supersedes what was saved of it. */
  end(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.text = "";
    this.thinking = "";
  }

  /**
   * Saves the streamed text so far, up to its last whitespace: a secret (never holding a space)
   * stays whole on one line, where the writer masks it.
   */
  private savePartial(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const text = cutAtSpace(this.text, this.everyChars * 16);
    const thinking = cutAtSpace(this.thinking, this.everyChars * 16);
    if (text || thinking) {
      this.text = this.text.slice(text.length);
      this.thinking = this.thinking.slice(thinking.length);
      const now = Date.now();
      const sync = now - this.synced >= this.everyMs;
      if (sync) this.synced = now;
      this.save({ kind: "partial", text, thinking, sync });
    }
    if (this.text || this.thinking) this.timer = unref(setTimeout(() => this.savePartial(), this.everyMs));
  }
}

/** Text up to (and with) its last whitespace; all of it once it is longer than `max`. */
function cutAtSpace(text: string, max: number): string {
  if (text.length >= max) return text;
  const end = Math.max(text.lastIndexOf(" "), text.lastIndexOf("\n"), text.lastIndexOf("\t"));
  return end === -1 ? "" : text.slice(0, end + 1);
}

function unref(timer: NodeJS.Timeout): NodeJS.Timeout {
  timer.unref();
  return timer;
}
