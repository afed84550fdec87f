// The file index behind `@` completion: every path of the project, listed in the background
// (file-sources.ts) into a packed table, ranked per query by file-match.ts. While the first
// listing streams in, queries are answered from what has arrived and answered again as it grows;
// a pass over very many paths answers first with its best so far, then in full;
// a refresh lists into a second table and swaps it in when complete, so answers never shrink
// half-way. Runs on its own thread (index-worker.ts), so ranking a million paths never delays a
// keystroke; the bench and tests drive it in-process.
import type { FileIndexRequest, FileMatches } from "../protocol/file-index.js";
import { FileMatcher, type MatchResult } from "./file-match.js";
import { listProjectFiles } from "./file-sources.js";
import { PathTable } from "./path-table.js";

export interface FileIndexOptions {
  /** A new `@` lists the project again when the last listing is older than this… */
  refreshAfterMs: number;
  /** …and than this many times the listing's own time. */
  refreshTimesListing: number;
  /** While listing, the current query is answered again this often. */
  progressEveryMs: number;
  /** A pass still ranking after this long posts its best so far, then the full answer. */
  firstAnswerMs: number;
}

const DEFAULTS_OPTIONS: FileIndexOptions = {
  refreshAfterMs: 2000,
  refreshTimesListing: 10,
  progressEveryMs: 200,
  firstAnswerMs: 40,
};

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class FileIndex {
  private table = new PathTable();
  private readonly matcher = new FileMatcher();
  private listing: AbortController | undefined;
  /** The table a listing is filling: `table` itself (the first), or one that will replace it. */
  private filling: PathTable | undefined;
  private listedAt = 0;
  /** How long the last listing took: a huge tree is listed again less often. */
  private listMs = 0;
  private want: { query: string; limit: number } | undefined;
  /** Bumped by every answer started: an older pass sees it and stops. */
  private answerSeq = 0;

  constructor(
    private readonly cwd: string,
    private readonly post: (reply: FileMatches) => void,
    private readonly opts: FileIndexOptions = DEFAULTS_OPTIONS,
    /** Called when a listing is done and answered: the thread collects its garbage then. */
    private readonly idle: () => void = () => {},
  ) {}

  request(req: FileIndexRequest): void {
    if (req.type === "stop") {
      this.listing?.abort();
      this.answerSeq++;
      return;
    }
    this.want = { query: req.query, limit: req.limit };
    if (!this.listing) this.list(this.table);
    else if (req.refresh && !this.filling && Date.now() - this.listedAt > this.refreshAfter()) {
      this.list(new PathTable());
    }
    this.answerNow();
  }

  /** Answers the current query; `then` runs after it is posted (or dropped for a newer one). */
  private answerNow(then: () => void = () => {}): void {
    // Ranking throws only on a bug; the next keystroke asks again, so nothing is lost meanwhile.
    this.answer().then(then, then);
  }

  /** A listing of 5 s (a million files, untracked ones walked for) is repeated at most every 50 s. */
  private refreshAfter(): number {
    return Math.max(this.opts.refreshAfterMs, this.listMs * this.opts.refreshTimesListing);
  }

  /** Resolves when the listing running now (if any) is complete; for the bench and tests. */
  whenListed(): Promise<void> {
    return new Promise((resolve) => {
      const check = () => (this.filling ? setTimeout(check, 10) : resolve());
      check();
    });
  }

  get size(): { paths: number; bytes: number } {
    return { paths: this.table.count, bytes: this.table.byteSize };
  }

  private list(into: PathTable): void {
    const ctl = new AbortController();
    this.listing = ctl;
    this.filling = into;
    const started = Date.now();
    const progress = setInterval(() => this.answerNow(), this.opts.progressEveryMs);
    progress.unref?.();
    // Listed in full or not (what was listed stands), the table is done.
    const done = () => {
      clearInterval(progress);
      into.seal();
      if (into !== this.table) {
        this.table = into;
        this.matcher.reset();
      }
      this.filling = undefined;
      this.listedAt = Date.now();
      this.listMs = this.listedAt - started;
      // The listing's garbage (its chunks, the grown arrays' old copies) goes now, not never.
      if (ctl.signal.aborted) this.idle();
      else this.answerNow(this.idle);
    };
    listProjectFiles(into, this.cwd, ctl.signal).then(done, done);
  }

  private async answer(): Promise<void> {
    const want = this.want;
    if (!want) return;
    const seq = ++this.answerSeq;
    const table = this.table;
    const building = this.filling === table;
    const started = Date.now();
    let shown = false;
    const result = await this.matcher.match(table, want.query, want.limit, async (soFar) => {
      // The list shows within a keystroke's budget, from the paths ranked so far; the rest follows.
      if (!shown && Date.now() - started >= this.opts.firstAnswerMs) {
        shown = true;
        this.postResult(soFar(), table, building, true);
      }
      await nextTurn();
      return seq === this.answerSeq;
    });
    if (!result || seq !== this.answerSeq) return;
    this.postResult(result, table, building, false);
  }

  private postResult(result: MatchResult, table: PathTable, building: boolean, ranking: boolean): void {
    this.post({
      type: "matches",
      query: result.query,
      paths: result.top.map((r) => r.path),
      total: result.total,
      indexed: table.count,
      building,
      ranking,
    });
  }
}
