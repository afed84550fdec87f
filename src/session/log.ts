// The run log: one JSON line per agent event or error, for finding out afterwards what happened.
// Lines are buffered and written in batches (a model streams hundreds of deltas a second);
// close() and process exit write what is left. Logging never throws into its caller.
import fs from "node:fs";
import path from "node:path";
import type { AgentEvent } from "../protocol/agent-event.js";
import { maskedJson } from "./masked-json.js";
import { base64Bytes } from "../protocol/vision.js";

export interface Logger {
  readonly path: string;
  event(event: AgentEvent): void;
  error(message: string, extra?: Record<string, unknown>): void;
  info(message: string, extra?: Record<string, unknown>): void;
  /** Writes buffered lines now. */
  flush(): void;
  /** Flushes and stops; later calls are ignored. */
  close(): void;
}

export interface LoggerOptions {
  /** How many log files to keep, this one included. */
  keep?: number;
  /** Whose secret values are masked; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Batch window in ms. */
  flushMs?: number;
}

const LOG_NAME = /^agent-.+\.log$/;
/** Never written, at any depth: credentials travel in these. */
const DROPPED_KEYS: ReadonlySet<string> = new Set(["apikey", "api_key", "authorization"]);

export function createLogger(logsDir: string, options: LoggerOptions = {}): Logger {
  const { keep = 20, env = process.env, flushMs = 200 } = options;
  const file = path.join(logsDir, `agent-${fileTimestamp(new Date())}-${process.pid}.log`);
  let pending: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let broken = false;

  try {
    fs.mkdirSync(logsDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, "", { mode: 0o600, flag: "a" });
    prune(logsDir, keep, path.basename(file));
  } catch {
    broken = true; // an unwritable log folder must not stop the app
  }

  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0 || broken) return;
    const text = pending.join("");
    pending = [];
    try {
      fs.appendFileSync(file, text);
    } catch {
      broken = true;
    }
  };
  const onExit = (): void => flush();
  process.on("exit", onExit);

  const write = (kind: string, fields: Record<string, unknown>): void => {
    if (closed || broken) return;
    try {
      pending.push(maskedJson({ at: new Date().toISOString(), kind, ...withoutCredentials(fields) }, env) + "\n");
      if (!timer) {
        timer = setTimeout(flush, flushMs);
        timer.unref();
      }
    } catch {
      // e.g. a value JSON cannot hold: lose this line, not the run
    }
  };

  return {
    path: file,
    event: (event) => write("event", { ...event }),
    error: (message, extra = {}) => write("error", { ...extra, message }),
    info: (message, extra = {}) => write("info", { ...extra, message }),
    flush,
    close: () => {
      if (closed) return;
      flush();
      closed = true;
      process.off("exit", onExit);
    },
  };
}

/** An ISO time that sorts by time and is safe in file names on every platform. */
function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, "-");
}

function withoutCredentials(fields: Record<string, unknown>): Record<string, unknown> {
  return strip(fields, new WeakSet()) as Record<string, unknown>;
}

function strip(value: unknown, seen: WeakSet<object>): unknown {
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[circular]";
  seen.add(value); // the objects on the current path only: a shared object is not a cycle
  let out: unknown;
  if (Array.isArray(value)) out = value.map((v) => strip(v, seen));
  else {
    const fields: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (DROPPED_KEYS.has(key.toLowerCase())) continue;
      // A message's images are in its session file already; the log notes only what they were.
      fields[key] = key === "images" && Array.isArray(inner) ? inner.map(imageNote) : strip(inner, seen);
    }
    out = fields;
  }
  seen.delete(value);
  return out;
}

function imageNote(image: unknown): unknown {
  const { mimeType, data } = (image ?? {}) as { mimeType?: unknown; data?: unknown };
  return { mimeType, bytes: typeof data === "string" ? base64Bytes(data) : 0 };
}

/** Deletes the oldest logs so that `keep` remain (names sort by their timestamps). */
function prune(logsDir: string, keep: number, current: string): void {
  const logs = fs
    .readdirSync(logsDir)
    .filter((name) => LOG_NAME.test(name))
    .sort();
  const others = logs.filter((name) => name !== current);
  const excess = others.length - Math.max(0, keep - 1);
  for (const name of others.slice(0, Math.max(0, excess))) {
    try {
      fs.unlinkSync(path.join(logsDir, name));
    } catch {
      // another agent0 pruned it first
    }
  }
}
