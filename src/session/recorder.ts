// The one way a session is saved. Agent events and messages go in (the TUI through its Cmds,
// headless directly), session lines come out: so what is saved is what was shown. It owns the
// file's writer and lock, keeps what could not be written (a full disk) and writes it as soon as
// writing works again, and saves an answer's text while it streams.
import fs from "node:fs";
import path from "node:path";
import { randomId } from "./random-id.js";
import type { AgentEvent } from "../protocol/agent-event.js";
import type { ConversationMessage } from "../protocol/conversation.js";
import type { PermissionMode, RunStamp } from "../protocol/run-config.js";
import { assertNever } from "../protocol/assert-never.js";
import { shorten } from "./list.js";
import { SessionWriter } from "./writer.js";
import type { ForkPoint, SessionMeta } from "./format.js";
import { closeAtProcessExit, releaseAtExit } from "./exit-hold.js";
import { describeError, emergencyCopy, failureText } from "./save-failure.js";
import { StreamedAnswer, type PartialLine } from "./streamed-answer.js";
import { acquireLock, type SessionLock } from "./lock.js";
import { checkpointDirFor } from "./checkpoint-dir.js";

/** Whether the session file holds everything so far; `text` is what to tell the user. */
export type SaveState = { saved: true; text: string } | { saved: false; reason: string; text: string };

/** What quitting may say about the session. */
export type CloseReport =
  | { kind: "nothing" }
  | { kind: "saved"; id: string; text: string }
  | { kind: "unsaved"; id: string; text: string; emergencyPath?: string };

export type Line =
  | { kind: "message"; message: ConversationMessage }
  | { kind: "reset"; messages: ConversationMessage[]; reason?: "rewind" }
  | { kind: "meta"; fields: SessionMeta }
  | PartialLine;

export interface RecorderOptions {
  dir: string;
  /** Header fields of a session file created at its first message. */
  fields: () => { cwd: string; provider: string; model: string };
  /** Told when saving fails and when it works again. */
  onSaveState?: (state: SaveState) => void;
  /** Whose secret values are masked; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** A streaming answer is saved at least this often (ms) … */
  partialMs?: number;
  /** … or whenever this much of it arrived unsaved (characters). */
  partialChars?: number;
}

/** The adopted state of an opened (or forked) session: see resume.ts. */
export interface Adopted {
  id: string;
  writer?: SessionWriter;
  lock?: SessionLock;
  parent?: ForkPoint;
  conversation: ConversationMessage[];
  model: string;
  /** Lines to write first: the repair of a history cut off by a crash. */
  repair: Line[];
}

export class SessionRecorder {
  id: string;
  private writer: SessionWriter | undefined;
  private lock: SessionLock | undefined;
  private parent: ForkPoint | undefined;
  /** Lines not on disk yet, in order: written at the next successful write. */
  private backlog: Line[] = [];
  private failure: string | undefined;
  /** The conversation as saved (or waiting to be): for an emergency copy. */
  private conversation: ConversationMessage[] = [];
  private model: string | undefined;
  /** The answer streaming now, saved as partial lines while it streams. */
  private readonly stream: StreamedAnswer;

  /**
   * Whatever ends the process while the session is held (a fatal error, Ctrl+C in -p, a reader that
   * closed the pipe) still writes what streamed and lets go of the lock: every step here is sync.
   */
  private readonly closeAtExit = (): void => {
    this.stream.saveAll();
    this.close();
  };

  constructor(private readonly opts: RecorderOptions) {
    this.id = randomId();
    this.stream = new StreamedAnswer((line) => this.write(line), opts.partialMs ?? 2000, opts.partialChars ?? 4096);
  }

  /** The session file's path (it exists once the first message is saved). */
  get path(): string {
    return path.join(this.opts.dir, `${this.id}.jsonl`);
  }

  /** Where this session's /undo checkpoints live: one folder per session file. */
  get checkpointDir(): string {
    return checkpointDirFor(this.path);
  }

  /**
   * What every run of this session is stamped with, whoever drives it (the TUI, `-p`, ACP, `mcp
   * serve`): the session's id and file (hooks get them as `session_id`, `transcript_path`) and,
   * once the file exists, where /undo keeps its checkpoints.
   */
  runStamp(): RunStamp {
    return {
      sessionId: this.id,
      transcriptPath: this.path,
      checkpointDir: this.started ? this.checkpointDir : undefined,
    };
  }

  /** Whether the session has a file (so quitting can name it). */
  get started(): boolean {
    return this.writer !== undefined;
  }

  get saving(): SaveState {
    return this.failure === undefined
      ? { saved: true, text: "" }
      : { saved: false, reason: this.failure, text: failureText(this.failure) };
  }

  /** Takes over a session opened by resume.ts (after closing the current one). */
  adopt(opened: Adopted): void {
    this.leave();
    this.id = opened.id;
    this.writer = opened.writer;
    this.hold(opened.lock);
    this.parent = opened.parent;
    this.conversation = [...opened.conversation];
    this.model = opened.model;
    this.backlog = [...opened.repair];
    // A fork's file is made with its first message, like a new session's.
    if (this.writer) this.flush();
  }

  /** A fresh session (`/new`); its file is made with its first message. */
  startNew(id: string = randomId()): void {
    this.leave();
    this.id = id;
    this.conversation = [];
    this.model = undefined;
    this.parent = undefined;
  }

  /** Closes the current session for another one; what could not be saved of it is said, not lost. */
  private hold(lock: SessionLock | undefined): void {
    this.lock = lock;
    releaseAtExit(this.closeAtExit);
    if (lock) closeAtProcessExit(this.closeAtExit);
  }

  private leave(): void {
    const report = this.close();
    if (report.kind === "unsaved") this.opts.onSaveState?.({ saved: true, text: report.text });
  }

  append(message: ConversationMessage): void {
    this.stream.end();
    // Partial lines still waiting are superseded by the message: never written.
    while (this.backlog.at(-1)?.kind === "partial") this.backlog.pop();
    this.conversation.push(message);
    this.write({ kind: "message", message });
  }

  /** `reason` "rewind" marks the line: the messages before it were set aside by /rewind, not lost. */
  reset(messages: ConversationMessage[], reason?: "rewind"): void {
    this.stream.end();
    this.conversation = [...messages];
    if (!this.writer && !this.parent && this.backlog.length === 0) return; // nothing saved yet: nothing to reset
    this.write({ kind: "reset", messages, ...(reason ? { reason } : {}) });
  }

  meta(fields: { model?: string; permissionMode?: PermissionMode; title?: string }): void {
    if (fields.model !== undefined) this.model = fields.model;
    // Before the file exists its header will carry the model; a meta line would be the only line.
    if (!this.writer && !this.backlog.some((l) => l.kind === "message")) return;
    this.write({ kind: "meta", fields });
  }

  /** One agent event, as the UI applied it (stale events of an old run never get here). */
  event(e: AgentEvent): void {
    switch (e.type) {
      case "text":
        this.stream.add("text", e.delta);
        break;
      case "thinking":
        this.stream.add("thinking", e.delta);
        break;
      case "message":
        this.append(e.message);
        break;
      case "compacted":
        this.reset(e.conversation);
        break;
      case "model-info":
        if (e.model !== (this.model ?? this.opts.fields().model)) this.meta({ model: e.model });
        else this.model = e.model;
        break;
      case "done":
      case "error":
        this.stream.end();
        break;
      case "prompt-blocked": {
        // The blocked prompt leaves the saved conversation too, so --resume never sends it.
        const at = this.conversation.findLastIndex((m) => m.role === "user");
        if (at >= 0) this.reset(this.conversation.slice(0, at));
        break;
      }
      case "hook":
      case "steered":
      case "status":
      case "tool-start":
      case "tool-end":
      case "permission-request":
      case "denied":
      case "usage":
      case "notice":
      case "model-load":
      case "tool-progress":
      case "mcp-state":
      case "jobs":
      case "mcp-expanded":
      case "mcp-expand-failed":
      case "tool-protocol":
      case "allowed":
      case "log":
        break;
      default:
        assertNever(e);
    }
  }

  /**
   * Writes what still waits and lets go of the file. When something could not be saved, the whole
   * conversation goes to a new session file in the system's temp folder, named in the report.
   */
  close(): CloseReport {
    this.stream.end();
    const report = this.report();
    this.writer?.close();
    this.writer = undefined;
    this.lock?.release();
    this.lock = undefined;
    releaseAtExit(this.closeAtExit);
    this.backlog = [];
    this.failure = undefined;
    return report;
  }

  private report(): CloseReport {
    if (this.backlog.length > 0) this.flush();
    const short = this.id.slice(0, 8);
    if (this.backlog.length === 0) {
      if (!this.writer) return { kind: "nothing" };
      return { kind: "saved", id: this.id, text: `Session ${this.id} saved — resume with: agent0 --resume ${this.id}` };
    }
    const reason = this.failure ?? "unknown error";
    const unsaved = this.backlog.filter((l) => l.kind === "message").length;
    const copy = emergencyCopy({
      id: this.id,
      fields: { ...this.opts.fields(), ...(this.model ? { model: this.model } : {}) },
      conversation: this.conversation,
      env: this.opts.env ?? process.env,
    });
    const what = `${unsaved} message${unsaved === 1 ? "" : "s"}`;
    const text = copy.ok
      ? `Session ${short} was NOT fully saved (${reason}): ${what} could not be written. ` +
        `The whole conversation was saved to ${copy.path} — move it into ${this.opts.dir} to resume it with: agent0 --resume ${copy.id}`
      : `Session ${short} was NOT fully saved (${reason}): ${what} could not be written, and no copy could be made (${copy.error}).`;
    return { kind: "unsaved", id: this.id, text, ...(copy.ok ? { emergencyPath: copy.path } : {}) };
  }

  private write(line: Line): void {
    this.backlog.push(line);
    this.flush();
  }

  private flush(): void {
    if (this.backlog.length === 0) return;
    // A new session (or a fork) gets its file with its first message.
    if (!this.writer && !this.backlog.some((l) => l.kind === "message")) return;
    const waited = this.failure !== undefined ? this.backlog.filter((l) => l.kind === "message").length : 0;
    try {
      const writer = this.ensureWriter();
      while (this.backlog.length > 0) {
        writeLine(writer, this.backlog[0]!);
        this.backlog.shift();
      }
    } catch (err) {
      const reason = describeError(err);
      if (this.failure === undefined) {
        this.failure = reason;
        this.opts.onSaveState?.({ saved: false, reason, text: failureText(reason) });
      }
      return;
    }
    if (this.failure !== undefined) {
      this.failure = undefined;
      this.opts.onSaveState?.({
        saved: true,
        text: `The session is saved again${waited ? `: ${waited} message${waited === 1 ? "" : "s"} that waited ${waited === 1 ? "was" : "were"} written` : ""}.`,
      });
    }
  }

  private ensureWriter(): SessionWriter {
    if (this.writer) return this.writer;
    const fields = this.opts.fields();
    const first = this.backlog.find((l) => l.kind === "message");
    const prompt = first?.kind === "message" && first.message.role === "user" ? first.message : undefined;
    const title = prompt ? shorten((prompt.typed ?? prompt.content).replace(/\s+/g, " "), 80) : "";
    fs.mkdirSync(this.opts.dir, { recursive: true, mode: 0o700 });
    // A fresh id: no one else writes it, so the lock is ours unless the disk refuses the file.
    const locked = acquireLock(this.path);
    if (!locked.ok) throw new Error(`session ${this.id} is open in another agent0 (pid ${locked.owner.pid})`);
    try {
      this.writer = SessionWriter.create(
        this.opts.dir,
        {
          id: this.id,
          cwd: fields.cwd,
          provider: fields.provider,
          model: this.model ?? fields.model,
          title,
          parent: this.parent,
        },
        { env: this.opts.env },
      );
    } catch (err) {
      locked.lock.release();
      throw err;
    }
    this.hold(locked.lock);
    return this.writer;
  }
}

function writeLine(writer: SessionWriter, line: Line): void {
  switch (line.kind) {
    case "message":
      return writer.append(line.message);
    case "reset":
      return writer.reset(line.messages, line.reason);
    case "meta":
      return writer.meta(line.fields);
    case "partial":
      return writer.partial(line.text, line.thinking, line.sync);
    default:
      assertNever(line);
  }
}
