// Finding sessions: list them newest first, resolve an id prefix, and format the
// `agent0 sessions` table. Listing scans bytes and parses only the rare non-message lines.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { displayWidth as stringWidth } from "../render/wrap.js";
import type { ConversationMessage } from "../protocol/conversation.js";
import { firstPrompt, parseHeader, parseLine, readSessionBytes } from "./format.js";
import { lockHolder } from "./lock.js";

export interface SessionSummary {
  id: string;
  path: string;
  /** File mtime, ms. */
  updated: number;
  cwd: string;
  title: string;
  messageCount: number;
  model: string;
  /** The session this one was forked from. */
  parent?: string;
  /** How many lines could not be read. */
  damaged: number;
  /** The pid of the agent0 that has the session open now. */
  openBy?: number;
}

/** Every message line starts with these bytes: the writer always puts `type` first. */
const MESSAGE_PREFIX = Buffer.from('{"type":"message"');
const PARTIAL_PREFIX = Buffer.from('{"type":"partial"');
const CLOSE_BRACE = 0x7d;

/** Reads a session's header, latest meta and message count without parsing its message lines. */
export function summarizeSession(file: string): { ok: true; summary: SessionSummary } | { ok: false; error: string } {
  const read = readSessionBytes(file);
  if (!read.ok) return read;
  const { bytes, updated } = read;
  const firstEnd = bytes.indexOf(10);
  const head = parseHeader(file, bytes.subarray(0, firstEnd === -1 ? bytes.length : firstEnd).toString("utf8"));
  if (!head.ok) return head;
  const { header } = head;
  let { title, model } = header;
  // A fork starts with its parent's messages up to the fork point.
  let count = header.parent?.messages ?? 0;
  let damaged = 0;
  let tornTail = false;
  let partial = false;
  let firstUser: ConversationMessage | undefined;
  for (let pos = firstEnd === -1 ? bytes.length : firstEnd + 1; pos < bytes.length;) {
    let end = bytes.indexOf(10, pos);
    const complete = end !== -1;
    if (!complete) end = bytes.length;
    const raw = bytes.subarray(pos, end);
    pos = end + 1;
    if (raw.length === 0) continue;
    // A complete line ends with "}"; one that does not was torn (and is parsed, to be sure).
    const whole = complete && raw[raw.length - 1] === CLOSE_BRACE;
    const prefix = raw.subarray(0, MESSAGE_PREFIX.length);
    // Message lines are only parsed when a title is still missing; partial lines never.
    if (whole && prefix.equals(PARTIAL_PREFIX)) {
      partial = true;
      continue;
    }
    if (whole && prefix.equals(MESSAGE_PREFIX) && (firstUser || title)) {
      count++;
      partial = false;
      continue;
    }
    const line = parseLine(raw.toString("utf8"));
    if (!line) {
      // An unfinished last line may be a write in progress (the session is open): counted below.
      if (complete) damaged++;
      else tornTail = true;
      continue;
    }
    if (line.type === "message") {
      count++;
      partial = false;
      if (!firstUser && line.message.role === "user") firstUser = line.message as ConversationMessage;
    } else if (line.type === "reset") {
      count = line.messages.length;
      partial = false;
      firstUser ??= line.messages.find((m) => m.role === "user") as ConversationMessage | undefined;
    } else if (line.type === "meta") {
      if (line.title !== undefined) title = line.title;
      if (line.model !== undefined) model = line.model;
    } else {
      partial = true;
    }
  }
  if (!title && firstUser) title = firstPrompt(firstUser);
  const summary: SessionSummary = {
    id: header.id,
    path: file,
    updated,
    cwd: header.cwd,
    title,
    // A cut-off answer is loaded as a message.
    messageCount: count + (partial ? 1 : 0),
    model,
    damaged,
  };
  if (header.parent) summary.parent = header.parent.id;
  const holder = lockHolder(file);
  if (holder) summary.openBy = holder.pid;
  else if (tornTail) summary.damaged++;
  return { ok: true, summary };
}

function sessionFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".jsonl"))
      .map((e) => e.name);
  } catch {
    return []; // no sessions folder yet
  }
}

/** All readable sessions, newest first; each unreadable file gives one warning naming it. */
export function listSessions(dir: string): { sessions: SessionSummary[]; warnings: string[] } {
  const sessions: SessionSummary[] = [];
  const warnings: string[] = [];
  for (const name of sessionFiles(dir)) {
    const result = summarizeSession(path.join(dir, name));
    if (result.ok) sessions.push(result.summary);
    else warnings.push(result.error);
  }
  sessions.sort((a, b) => b.updated - a.updated);
  return { sessions, warnings };
}

/** The newest session started in `cwd` (for `--continue`). */
export function latestSessionFor(dir: string, cwd: string): SessionSummary | undefined {
  const target = path.resolve(cwd);
  return listSessions(dir).sessions.find((s) => path.resolve(s.cwd) === target);
}

/** An exact id, or a prefix that matches exactly one session file. */
export function resolveSession(
  dir: string,
  idOrPrefix: string,
): { ok: true; path: string; id: string } | { ok: false; error: string } {
  const ids = sessionFiles(dir).map((name) => name.slice(0, -".jsonl".length));
  const wanted = idOrPrefix.trim();
  const matches = ids.includes(wanted) ? [wanted] : wanted === "" ? [] : ids.filter((id) => id.startsWith(wanted));
  if (matches.length === 1) return { ok: true, id: matches[0]!, path: path.join(dir, `${matches[0]}.jsonl`) };
  if (matches.length === 0) {
    return { ok: false, error: `No session matches '${idOrPrefix}'. Run \`agent0 sessions\` to list them.` };
  }
  const lines = matches.sort().map((id) => {
    const result = summarizeSession(path.join(dir, `${id}.jsonl`));
    return `  ${id}  ${result.ok ? shorten(result.summary.title, 50) : "(unreadable)"}`;
  });
  return {
    ok: false,
    error: `'${idOrPrefix}' matches ${matches.length} sessions; give more of the id:\n${lines.join("\n")}`,
  };
}

export function formatRelativeTime(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return days === 1 ? "1 day ago" : `${days} days ago`;
  return new Date(then).toISOString().slice(0, 10);
}

/** How wide a title an editor is shown (session/list, session_info_update). */
export const TITLE_COLUMNS = 80;

/** A session's title from its first request: the prompt as typed, on one line, shortened. */
export function sessionTitle(first: ConversationMessage): string {
  return shorten(firstPrompt(first), TITLE_COLUMNS);
}

/** Cuts `text` to at most `width` terminal columns, ending in "…" when cut. */
export function shorten(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const ch of text) {
    const w = stringWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return out + "…";
}

/** Keeps the end of a long path, where the project's own name is. */
function shortenFolder(folder: string, home: string, width: number): string {
  const shown =
    home && (folder === home || folder.startsWith(home + path.sep)) ? "~" + folder.slice(home.length) : folder;
  if (stringWidth(shown) <= width) return shown;
  return "…" + [...shown].slice(-(width - 1)).join("");
}

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - stringWidth(text)));
}

/** Forks right under their parent (newest first among siblings), with their depth. */
export function forkTree(sessions: SessionSummary[]): { session: SessionSummary; depth: number }[] {
  const ids = new Set(sessions.map((s) => s.id));
  const children = new Map<string, SessionSummary[]>();
  for (const s of sessions) {
    if (s.parent && ids.has(s.parent) && s.parent !== s.id) {
      children.set(s.parent, [...(children.get(s.parent) ?? []), s]);
    }
  }
  const out: { session: SessionSummary; depth: number }[] = [];
  const seen = new Set<string>();
  const walk = (s: SessionSummary, depth: number) => {
    if (seen.has(s.id)) return; // a hand-made cycle of parents
    seen.add(s.id);
    out.push({ session: s, depth });
    for (const child of children.get(s.id) ?? []) walk(child, depth + 1);
  };
  for (const s of sessions) if (!s.parent || !ids.has(s.parent)) walk(s, 0);
  for (const s of sessions) walk(s, 0);
  return out;
}

/** What the NOTE column says: open now, damaged. */
function note(s: SessionSummary): string {
  const parts: string[] = [];
  if (s.openBy !== undefined) parts.push(`open now (pid ${s.openBy})`);
  if (s.damaged > 0) parts.push(`damaged: ${s.damaged} unreadable line${s.damaged === 1 ? "" : "s"}`);
  return parts.join(", ");
}

/**
 * The `agent0 sessions` table: id, last update, folder, title, message count; forks indented under
 * their parent; a NOTE column when a session is open now or damaged.
 */
export function formatSessionList(sessions: SessionSummary[], now: number, home: string = os.homedir()): string {
  if (sessions.length === 0) return "No sessions yet.";
  const notes = sessions.some((s) => note(s) !== "");
  const rows = [
    ["ID", "UPDATED", "FOLDER", "TITLE", "MESSAGES", ...(notes ? ["NOTE"] : [])],
    ...forkTree(sessions).map(({ session: s, depth }) => [
      depth === 0 ? s.id : `${"  ".repeat(depth - 1)}└ ${s.id}`,
      formatRelativeTime(s.updated, now),
      shortenFolder(s.cwd, home, 30),
      shorten(s.title || "(untitled)", 50),
      String(s.messageCount),
      ...(notes ? [note(s)] : []),
    ]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => stringWidth(row[col]!))));
  return rows
    .map((row) =>
      row
        .map((cell, col) => (col === row.length - 1 ? cell : pad(cell, widths[col]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
