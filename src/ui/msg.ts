import type { AgentEvent } from "../protocol/agent-event.js";
import type { ConversationMessage } from "../protocol/conversation.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { WorkerCommand } from "../protocol/worker-command.js";
import type { PickerItem, SkillRef } from "./model.js";
import type { CommandItem, MentionItem, NotifyMode } from "./steer-types.js";

/** A decoded key press (see keys.ts). `name` is a printable character or a key name. */
export interface Key {
  name: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/** What happened. */
export type Msg =
  | { type: "key"; key: Key }
  | { type: "paste"; text: string }
  | { type: "wheel"; direction: "up" | "down" }
  | { type: "resize"; width: number; height: number }
  | { type: "tick"; now: number }
  | { type: "agent"; event: AgentEvent }
  | { type: "picker-items"; purpose: "model" | "session"; items: PickerItem[] }
  | { type: "session-opened"; sessionId: string; conversation: ConversationMessage[]; model?: string }
  | { type: "notice"; level: "info" | "warn" | "error"; text: string }
  /** Saving the session failed, or works again (the status line flags "not saved" meanwhile). */
  | { type: "save-state"; saved: boolean; text: string }
  | { type: "markdown-ready" }
  /** Slash-menu items of one source (e.g. "mcp:db"), replacing that source's earlier items. */
  | { type: "commands"; source: string; items: CommandItem[] }
  /** @-completion candidates of one source (e.g. MCP resources), replacing its earlier ones. */
  | { type: "mention-items"; source: string; items: MentionItem[] }
  | { type: "files-listed"; files: string[] }
  /** A line's @mentions were read: `content` is the message with the attachments. */
  | { type: "mentions-read"; text: string; content: string; attached: string[]; problems: string[] }
  | { type: "shell-done"; command: string; output: string; exitCode: number | null }
  /** The terminal gained or lost focus (focus reporting). */
  | { type: "focus"; focused: boolean }
  /**
   * Everything loaded after the first frame: the validated config, the resumed conversation,
   * the system prompt and skills. Runs wait for it.
   */
  | {
      type: "boot-ready";
      config: RunConfig;
      sessionId: string;
      conversation: ConversationMessage[];
      skills: SkillRef[];
      warnings: string[];
      /** Inputs of earlier launches in this folder, oldest first. */
      history?: string[];
      notify?: NotifyMode;
    };

/** What to do: data, run by the Cmd interpreter in runtime/. A Cmd carries everything it needs. */
export type Cmd =
  /** Forward a command to the agent worker as it is (its payload complete). */
  | { type: "worker"; command: WorkerCommand }
  | { type: "session-append"; message: ConversationMessage }
  /** An applied agent event, for the session recorder (it saves streamed text and messages). */
  | { type: "session-record"; event: AgentEvent }
  | { type: "session-reset"; conversation: ConversationMessage[] }
  | { type: "session-meta"; fields: { model?: string; permissionMode?: PermissionMode } }
  | { type: "new-session" }
  | { type: "open-session"; idOrPrefix: string }
  | { type: "list-models" }
  | { type: "list-sessions" }
  | { type: "save-config"; keys: Record<string, unknown> }
  | { type: "show"; what: "context" | "memory" }
  | { type: "undo"; force: boolean; sessionId: string; conversation: ConversationMessage[] }
  /** List the project's files (.gitignore respected) for @ completion. */
  | { type: "list-files" }
  | { type: "read-mentions"; text: string }
  /** The user's own `!command`: run in the project folder, no approval. */
  | { type: "shell"; command: string }
  | { type: "shell-cancel" }
  | { type: "history-append"; text: string }
  /** Draw the user's attention (the terminal is not focused). */
  | { type: "notify"; mode: "bell" | "osc9"; text: string }
  | { type: "quit" };
