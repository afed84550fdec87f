// Session files: one JSON Lines file per session, appended and fsynced one line at a time,
// so saving costs the same at message 5 and at message 5,000 (DESIGN.md §3).
import { randomId } from "./random-id.js";
import fs from "node:fs";
import path from "node:path";
import type { ConversationMessage } from "../protocol/conversation.js";
import {
  parseHeader,
  SESSION_VERSION,
  unreadable,
  type ForkPoint,
  type SessionHeader,
  type SessionMeta,
} from "./format.js";

export * from "./format.js";
export * from "./list.js";
export * from "./load.js";

export { maskedJson } from "./masked-json.js";
import { maskedJson } from "./masked-json.js";

export interface NewSession {
  cwd: string;
  provider: string;
  model: string;
  title?: string;
  /** Defaults to a fresh UUID. */
  id?: string;
  /** Set for a fork: the session it continues and where. */
  parent?: ForkPoint;
}

export interface WriterOptions {
  /** Whose secret values are masked; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

/** A failed write, with the system's error code (ENOSPC, EDQUOT, EROFS, EIO, …) when there is one. */
export class SaveError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * Appends to one session file. Every write is fsynced before it returns (partial lines: at most
 * every few seconds); a failure throws a SaveError and leaves the file as it was before that line.
 */
export class SessionWriter {
  private fd: number | undefined;
  /** A failed write may have left bytes that could not be taken back: check the tail first. */
  private tailSuspect = false;
  /** The file's size after the last write (undefined: ask the file). */
  private size: number | undefined;

  private constructor(
    readonly id: string,
    readonly path: string,
    fd: number,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.fd = fd;
  }

  static create(dir: string, fields: NewSession, options: WriterOptions = {}): SessionWriter {
    const id = fields.id ?? randomId();
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `${id}.jsonl`);
    // "ax": never append to (let alone overwrite) a file that is already there.
    const writer = new SessionWriter(id, file, fs.openSync(file, "ax+", 0o600), options.env ?? process.env);
    const header: SessionHeader = {
      type: "session",
      version: SESSION_VERSION,
      id,
      created: new Date().toISOString(),
      cwd: fields.cwd,
      provider: fields.provider,
      model: fields.model,
      title: fields.title ?? "",
      ...(fields.parent ? { parent: fields.parent } : {}),
    };
    try {
      writer.writeLine(header);
    } catch (err) {
      // A file without its header is no session: remove it so that a later attempt starts clean.
      writer.close();
      fs.rmSync(file, { force: true });
      throw err;
    }
    syncDir(dir);
    return writer;
  }

  /** Reopens a session to append to it; refuses (throws) a file that is not a readable session. */
  static open(dir: string, id: string, options: WriterOptions = {}): SessionWriter {
    if (id.includes("/") || id.includes("\\")) throw new Error(`'${id}' is not a session id`);
    const file = path.join(dir, `${id}.jsonl`);
    const head = readFirstLine(file);
    if (!head.ok) throw new Error(head.error);
    const parsed = parseHeader(file, head.line);
    if (!parsed.ok) throw new Error(parsed.error);
    // O_NOFOLLOW: a session file swapped for a link (to ~/.bashrc) is refused, not appended through.
    const flags = fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_NOFOLLOW;
    const writer = new SessionWriter(parsed.header.id, file, fs.openSync(file, flags), options.env ?? process.env);
    writer.tailSuspect = true; // a crash may have torn the last line: the next line starts a new one
    return writer;
  }

  append(message: ConversationMessage): void {
    this.writeLine({ type: "message", at: new Date().toISOString(), message });
  }

  meta(fields: SessionMeta): void {
    this.writeLine({ type: "meta", at: new Date().toISOString(), ...fields });
  }

  /** Records that the conversation is now exactly `messages` (undo, clear, compaction). */
  reset(messages: ConversationMessage[], reason?: "rewind"): void {
    this.writeLine({ type: "reset", at: new Date().toISOString(), messages, ...(reason ? { reason } : {}) });
  }

  /**
   * Text that streamed since the last partial line. `sync: false` leaves it to the OS to write
   * back (it survives a crash or kill -9 of the app, not a power cut) so that saving stays off the
   * stream's path; the caller syncs every few seconds.
   */
  partial(text: string, thinking: string, sync: boolean): void {
    const line: Record<string, string> = { type: "partial", at: new Date().toISOString(), text };
    if (thinking) line.thinking = thinking;
    this.writeLine(line, sync);
  }

  close(): void {
    if (this.fd === undefined) return;
    fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private writeLine(entry: object, sync = true): void {
    this.writeRaw(maskedJson(entry, this.env) + "\n", sync);
  }

  private writeRaw(text: string, sync: boolean): void {
    if (this.fd === undefined) throw new Error(`Session ${this.id} is closed`);
    const fd = this.fd;
    let bytes = Buffer.from(text, "utf8");
    // The lock makes this the file's only writer, so its size is known without asking each time.
    let before = this.size;
    try {
      if (before === undefined || this.tailSuspect) before = fs.fstatSync(fd).size;
      if (this.tailSuspect && !endsWithNewline(fd, before)) bytes = Buffer.concat([Buffer.from("\n"), bytes]);
      for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done);
      if (sync) fs.fsyncSync(fd);
      this.tailSuspect = false;
      this.size = before + bytes.length;
    } catch (err) {
      // Take back what this line got onto the disk (a full disk writes part of it), so the file
      // never holds half a line that the next one would be glued to.
      this.size = undefined;
      try {
        if (before !== undefined) fs.ftruncateSync(fd, before);
      } catch {
        this.tailSuspect = true;
      }
      const code = (err as NodeJS.ErrnoException).code;
      throw new SaveError(`Cannot save session ${this.path}: ${(err as Error).message}`, code);
    }
  }
}

function readFirstLine(file: string): { ok: true; line: string } | { ok: false; error: string } {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      ok: false,
      error: code === "ENOENT" ? `No session file ${file}` : unreadable(file, (err as Error).message),
    };
  }
  try {
    const chunks: Buffer[] = [];
    const chunk = Buffer.alloc(64 * 1024);
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      const newline = chunk.subarray(0, n).indexOf(10);
      chunks.push(Buffer.from(chunk.subarray(0, newline === -1 ? n : newline)));
      if (newline !== -1 || n === 0) break;
    }
    return { ok: true, line: Buffer.concat(chunks).toString("utf8") };
  } finally {
    fs.closeSync(fd);
  }
}

function endsWithNewline(fd: number, size: number): boolean {
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  fs.readSync(fd, last, 0, 1, size - 1);
  return last[0] === 10;
}

/** Makes a new file's directory entry durable too; best effort where directories cannot be opened. */
function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, "r");
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not supported on this platform: the file's own fsync still holds its content.
  }
}
