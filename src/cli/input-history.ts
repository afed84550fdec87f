// Input history that lasts across launches: one file per project folder in the data folder,
// one JSON string per line, newest last. Secrets are masked before anything is written.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { maskSecrets } from "../safety/secrets.js";

export const HISTORY_MAX = 500;

/** Shapes of well-known credentials, masked even when no environment variable holds them. */
const TOKEN_SHAPES = [
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
];

export function maskForHistory(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = maskSecrets(text, env);
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, "****");
  return out;
}

export function historyFile(dataDir: string, cwd: string): string {
  const key = createHash("sha256").update(path.resolve(cwd)).digest("hex").slice(0, 16);
  return path.join(dataDir, "history", `${key}.jsonl`);
}

/** The last `max` distinct entries, oldest first: a repeated input counts at its newest place. */
export function collapse(entries: readonly string[], max = HISTORY_MAX): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = entries.length - 1; i >= 0 && out.length < max; i--) {
    if (seen.has(entries[i]!)) continue;
    seen.add(entries[i]!);
    out.push(entries[i]!);
  }
  return out.reverse();
}

function readLines(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of text.split("\n")) {
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === "string") out.push(v);
    } catch {
      // a torn or foreign line: skipped
    }
  }
  return out;
}

export class InputHistory {
  constructor(
    private readonly file: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** The history, oldest first; a file grown past twice the limit is rewritten collapsed. */
  load(): string[] {
    const lines = readLines(this.file);
    const entries = collapse(lines);
    if (lines.length > 2 * HISTORY_MAX) {
      const tmp = `${this.file}.tmp`;
      fs.writeFileSync(tmp, entries.map((e) => JSON.stringify(e) + "\n").join(""), { mode: 0o600 });
      fs.renameSync(tmp, this.file);
    }
    return entries;
  }

  append(text: string): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    // O_NOFOLLOW: the history is never appended through a link planted in its place.
    const flag = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW;
    const fd = fs.openSync(this.file, flag, 0o600);
    try {
      fs.writeSync(fd, JSON.stringify(maskForHistory(text, this.env)) + "\n");
    } finally {
      fs.closeSync(fd);
    }
  }
}
