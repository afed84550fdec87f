// Session files: one JSON Lines file per session, appended and fsynced one line at a time,
// so saving costs the same at message 5 and at message 5,000 (DESIGN.md §3).
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ConversationMessage } from "../protocol/conversation.js";
import { tokensOf } from "../protocol/usage.js";
import {
  firstPrompt,
  parseHeader,
  parseLine,
  SESSION_VERSION,
  unreadable,
  type SessionHeader,
  type SessionMeta,
} from "./format.js";

export * from "./format.js";
export * from "./list.js";

export type LoadedSession =
  | {
      ok: true;
      header: SessionHeader;
      messages: ConversationMessage[];
      /** Header values overlaid with every meta line; title falls back to the first prompt. */
      meta: Required<Pick<SessionMeta, "model" | "provider" | "title">> & Pick<SessionMeta, "permissionMode">;
      /** File mtime, ms. */
      updated: number;
      /** Unreadable lines in the middle of the file that were left out. */
      skipped: number;
      /** Tokens every saved request used, including turns later undone, cleared or compacted. */
      tokensUsed: number;
    }
  | { ok: false; error: string };

export function loadSession(file: string): LoadedSession {
  let text: string;
  let updated: number;
  try {
    text = fs.readFileSync(file, "utf8");
    updated = fs.statSync(file).mtimeMs;
  } catch (err) {
    return { ok: false, error: unreadable(file, (err as Error).message) };
  }
  const lines = text.split("\n");
  const head = parseHeader(file, lines[0] ?? "");
  if (!head.ok) return head;
  const { header } = head;
  // Without a final newline the last line may be torn by a crash mid-append.
  const tornTail = !text.endsWith("\n") && lines.length > 1;
  let messages: ConversationMessage[] = [];
  const meta: Extract<LoadedSession, { ok: true }>["meta"] = {
    model: header.model,
    provider: header.provider,
    title: header.title,
  };
  let skipped = 0;
  let tokensUsed = 0;
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === "") continue;
    const line = parseLine(raw);
    if (!line) {
      if (!(tornTail && i === lines.length - 1)) skipped++;
      continue;
    }
    if (line.type === "message") {
      const message = line.message as ConversationMessage;
      messages.push(message);
      tokensUsed += tokensOf(message);
    } else if (line.type === "reset") messages = line.messages as ConversationMessage[];
    else {
      if (line.model !== undefined) meta.model = line.model;
      if (line.provider !== undefined) meta.provider = line.provider;
      if (line.title !== undefined) meta.title = line.title;
      if (line.permissionMode !== undefined) meta.permissionMode = line.permissionMode;
    }
  }
  if (!meta.title) {
    const first = messages.find((m) => m.role === "user");
    if (first) meta.title = firstPrompt(first);
  }
  return { ok: true, header, messages, meta, updated, skipped, tokensUsed };
}

export { maskedJson } from "./masked-json.js";
import { maskedJson } from "./masked-json.js";

export interface NewSession {
  cwd: string;
  provider: string;
  model: string;
  title?: string;
  /** Defaults to a fresh UUID. */
  id?: string;
}

export interface WriterOptions {
  /** Whose secret values are masked; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Appends to one session file. Every write is fsynced before it returns; a failure throws. */
export class SessionWriter {
  private fd: number | undefined;

  private constructor(
    readonly id: string,
    readonly path: string,
    fd: number,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.fd = fd;
  }

  static create(dir: string, fields: NewSession, options: WriterOptions = {}): SessionWriter {
    const id = fields.id ?? randomUUID();
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `${id}.jsonl`);
    // "ax": never append to (let alone overwrite) a file that is already there.
    const writer = new SessionWriter(id, file, fs.openSync(file, "ax", 0o600), options.env ?? process.env);
    const header: SessionHeader = {
      type: "session",
      version: SESSION_VERSION,
      id,
      created: new Date().toISOString(),
      cwd: fields.cwd,
      provider: fields.provider,
      model: fields.model,
      title: fields.title ?? "",
    };
    writer.writeLine(header);
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
    const writer = new SessionWriter(parsed.header.id, file, fs.openSync(file, "a"), options.env ?? process.env);
    if (!endsWithNewline(file)) writer.writeRaw("\n"); // so the next line is not glued to a torn one
    return writer;
  }

  append(message: ConversationMessage): void {
    this.writeLine({ type: "message", at: new Date().toISOString(), message });
  }

  meta(fields: SessionMeta): void {
    this.writeLine({ type: "meta", at: new Date().toISOString(), ...fields });
  }

  /** Records that the conversation is now exactly `messages` (undo, clear, compaction). */
  reset(messages: ConversationMessage[]): void {
    this.writeLine({ type: "reset", at: new Date().toISOString(), messages });
  }

  close(): void {
    if (this.fd === undefined) return;
    fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private writeLine(entry: object): void {
    this.writeRaw(maskedJson(entry, this.env) + "\n");
  }

  private writeRaw(text: string): void {
    if (this.fd === undefined) throw new Error(`Session ${this.id} is closed`);
    const bytes = Buffer.from(text, "utf8");
    try {
      for (let done = 0; done < bytes.length;) done += fs.writeSync(this.fd, bytes, done);
      fs.fsyncSync(this.fd);
    } catch (err) {
      throw new Error(`Cannot save session ${this.path}: ${(err as Error).message}`);
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

function endsWithNewline(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    fs.readSync(fd, last, 0, 1, size - 1);
    return last[0] === 10;
  } finally {
    fs.closeSync(fd);
  }
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
