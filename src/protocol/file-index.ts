// The border between the main thread and the file index's worker (src/search/index-worker.ts):
// plain data both ways. The main thread asks for the best paths for what follows an `@`; the
// worker answers, and answers again as its index grows while it is being built.

export type FileIndexRequest =
  /** Rank the paths for `query`; `refresh`: list the project again first (a new `@` was typed). */
  { type: "query"; query: string; limit: number; refresh: boolean } | { type: "stop" };

export interface FileMatches {
  type: "matches";
  query: string;
  /** Best first; folders end in "/". */
  paths: string[];
  /** Paths that match in all. */
  total: number;
  /** Paths in the index so far. */
  indexed: number;
  /** The index is still being listed: more may match soon. */
  building: boolean;
  /** The best of the paths ranked so far: the full answer to this query follows. */
  ranking: boolean;
}

export type FileIndexReply = FileMatches;
