/** `<sessionsDir>/<id>.checkpoints` for `<sessionsDir>/<id>.jsonl`. */
export function checkpointDirFor(sessionPath: string): string {
  return sessionPath.replace(/\.jsonl$/, "") + ".checkpoints";
}
