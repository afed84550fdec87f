import type { EngineOffer } from "../../protocol/engine-offer.js";
import type { ReviewTarget } from "../../context/review.js";
import type { FileMatches } from "../../protocol/file-index.js";
import type { AgentEvent } from "../../protocol/agent-event.js";
import type { ConversationMessage, ImageAttachment } from "../../protocol/conversation.js";
import type { PermissionMode, RunStamp } from "../../protocol/run-config.js";
import type { PickerItem, RewindRestore, SkillRef } from "../model.js";
import type { McpConfigured, McpTrustDecision } from "../../protocol/mcp-state.js";

/** The MCP servers, settings and plugins read again; `skills` when the plugins' skills may have changed. */
export interface McpReloaded {
  mcp: McpConfigured;
  warnings: string[];
  skills?: SkillRef[];
}

export type Opened =
  | {
      ok: true;
      sessionId: string;
      conversation: ConversationMessage[];
      model?: string;
      notices: string[];
      tokensUsed: number;
    }
  | { ok: false; error: string };

/**
 * The I/O the runtime performs for Cmds, supplied by main.ts. The app never imports a
 * provider, a tool or the session store: it asks for these.
 */
export interface Services {
  sessionId(): string;
  appendMessage(message: ConversationMessage): void;
  resetSession(conversation: ConversationMessage[]): void;
  sessionMeta(fields: { model?: string; permissionMode?: PermissionMode }): void;
  /** An agent event the UI applied: the session recorder saves what it shows (streamed text too). */
  record(event: AgentEvent): void;
  newSession(): string;
  openSession(idOrPrefix: string): Opened;
  listSessions(): { items: PickerItem[]; warnings: string[] };
  listModels(): Promise<PickerItem[]>;
  saveConfig(keys: Record<string, unknown>): string;
  /** `conversation`: the messages, for /context's budget. */
  show(what: "memory" | "agents"): Promise<string>;
  /** /doctor's report (cli/doctor.ts), with the terminal's answers the UI holds. */
  doctor(terminal: { syncOutput: boolean; keyboard: "legacy" | "kitty"; theme: string }): Promise<string>;
  /** Remembers trust decisions on project MCP servers (in the user's config folder). */
  mcpTrust(decisions: { name: string; decision: McpTrustDecision }[]): McpReloaded;
  /** `/plugins enable|disable`: saves the choice to config.json and reads the plugins again. */
  setPluginEnabled(name: string, enabled: boolean): Promise<McpReloaded & { text: string }>;
  /** Writes an allow rule to the project's `.agent0/settings.json` (keeping its trust); `text` says what happened. */
  addProjectRule(rule: string): { mcp: McpConfigured; warnings: string[]; text: string };
  /** Takes a rule out of a settings file. */
  removeRule(rule: string, file: string): { mcp: McpConfigured; warnings: string[]; text: string };
  /** Reads the MCP config files again (at /new). */
  mcpReload(): McpReloaded;
  /** What each run is stamped with: the session's id, its file (hooks' `transcript_path`), its /undo folder. */
  runStamp(): RunStamp;
  /** Restores the files of the last turn; returns the conversation without that turn. */
  undo(
    conversation: ConversationMessage[],
    force: boolean,
  ): Promise<{ ok: boolean; text: string; conversation?: ConversationMessage[] }>;
  /**
   * Ranks the project's files and folders (folders end in "/"; .gitignore respected) for @
   * completion on the file index's thread; `onMatches` hears each answer, again as the index grows.
   */
  matchFiles(query: string, refresh: boolean, onMatches: (matches: FileMatches) => void): void;
  /**
   * /rewind to the user message at `turn`: its files as they were before it (code), the
   * conversation cut before it (conversation), or both. `conflicts`: files changed outside agent0
   * since, when not `force` (nothing was touched).
   */
  rewind(
    conversation: ConversationMessage[],
    turn: number,
    restore: RewindRestore,
    force: boolean,
  ): Promise<{ ok: boolean; text: string; conversation?: ConversationMessage[]; conflicts?: string[] }>;
  /** Writes the conversation as Markdown to `file` (default: agent0-<session>.md in the project); returns what to tell the user. */
  exportMarkdown(conversation: ConversationMessage[], model: string, file?: string): Promise<string>;
  /** One unified diff per file this session's tools changed: what was there before against what is there now. */
  sessionDiff(): Promise<{ path: string; unified: string }[]>;
  /** /review: the project's change to review (context/review.ts). */
  reviewDiff(target: ReviewTarget): Promise<{ ok: true; diff: string } | { ok: false; error: string }>;
  /** The message with each `@path` it mentions attached (see cli/attach.ts). */
  /** Attaches the files `mentions` (tokens of `text` after `@`) name; all of the text's when absent. */
  readMentions(
    text: string,
    mentions?: string[],
  ): Promise<{
    content: string;
    attached: string[];
    problems: string[];
    notes?: string[];
    images?: ImageAttachment[];
  }>;
  /** The user's own `!command` in the project folder: the normal timeout; the signal kills it. */
  runShell(command: string, signal: AbortSignal): Promise<{ output: string; exitCode: number | null }>;
  /**
   * The engine offer accepted: the engine installed if missing, the model downloaded; each step's
   * line to `onLine`. Never rejects: a failure is `ok: false` with what to do.
   */
  acceptOffer(offer: EngineOffer, onLine: (line: string) => void): Promise<{ ok: boolean; message?: string }>;
  /** Stops the offer's install or download under way. */
  cancelOffer(): void;
  /** Keeps an input in this folder's history (secrets masked, duplicates collapsed). */
  appendHistory(text: string): void;
  log(kind: string, data: unknown): void;
  /** Saves what is left; what quitting should print about the session (nothing when none was made). */
  close(): Promise<{ ok: boolean; text: string } | undefined>;
}
