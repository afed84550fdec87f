import type { EngineOffer } from "../protocol/engine-offer.js";
import type { ReviewTarget } from "../context/review.js";
import type { FileMatches } from "../protocol/file-index.js";
import type { AgentEvent } from "../protocol/agent-event.js";
import type { ConversationMessage, ImageAttachment } from "../protocol/conversation.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { WorkerCommand } from "../protocol/worker-command.js";
import type { PickerItem, RewindRequest, SkillRef, TerminalCaps } from "./model.js";
import type { ColourTheme } from "../render/theme.js";
import type { CommandItem, MentionItem, NotifyMode } from "./steer-types.js";
import type { McpConfigured, McpTrustDecision } from "../protocol/mcp-state.js";
import type { PromptPart } from "../context/prompt.js";
import type { StatusLineInput } from "../protocol/status-line.js";

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
  /**
   * `lines`: set when Up or Down arrows arrived several in one read (the terminal's
   * alternate-scroll wheel, or keys bunched by a slow link): one per arrow. Default 3.
   */
  | { type: "wheel"; direction: "up" | "down"; lines?: number }
  | { type: "resize"; width: number; height: number }
  | { type: "tick"; now: number }
  /** The "Press Ctrl+C again to exit" window of arm `seq` has ended. */
  | { type: "exit-disarm"; seq: number }
  /** The idle wait `seq` after an answer has ended (update/idle.ts). */
  | { type: "idle-check"; seq: number }
  | { type: "agent"; event: AgentEvent }
  /** The engine offer's install or download said how far it is. */
  | { type: "offer-progress"; line: string }
  | { type: "offer-done"; ok: boolean; message?: string }
  | { type: "picker-items"; purpose: "model" | "session"; items: PickerItem[] }
  /** `tokensUsed`: what the session has spent so far (default: counted from `conversation`). */
  | {
      type: "session-opened";
      sessionId: string;
      conversation: ConversationMessage[];
      model?: string;
      tokensUsed?: number;
    }
  | { type: "notice"; level: "info" | "warn" | "error"; text: string }
  /** Saving the session failed, or works again (the status line flags "not saved" meanwhile). */
  | { type: "save-state"; saved: boolean; text: string }
  /** What a /rewind did; `conflicts`: files changed outside agent0 since (nothing was touched). */
  /** /diff's answer: one unified diff per file this session changed. */
  | { type: "session-diff"; diffs: { path: string; unified: string }[] }
  /** /review's change, read by agent0 (context/review.ts): the run starts with it, or the reason it cannot. */
  | {
      type: "review-diff";
      target: ReviewTarget;
      typed: string;
      diff: { ok: true; diff: string } | { ok: false; error: string };
    }
  | { type: "rewound"; request: RewindRequest; ok: boolean; text: string; conflicts?: string[] }
  | { type: "markdown-ready" }
  /** Slash-menu items of one source (e.g. "mcp:db"), replacing that source's earlier items. */
  | { type: "commands"; source: string; items: CommandItem[] }
  /** @-completion candidates of one source (e.g. MCP resources), replacing its earlier ones. */
  | { type: "mention-items"; source: string; items: MentionItem[] }
  /** The file index ranked the project's paths for an @ query (again as its listing grows). */
  | { type: "files-matched"; matches: FileMatches }
  /** A line's @mentions were read: `content` is the message with the attachments. */
  | {
      type: "mentions-read";
      text: string;
      content: string;
      attached: string[];
      problems: string[];
      /** An image scaled down to fit, and the like: said, not warned. */
      notes?: string[];
      images?: ImageAttachment[];
    }
  /** /add-dir's folder exists: the tools may use it from the next run on (its real path). */
  | { type: "dir-added"; dir: string }
  /** The status line command's first line of output (sanitised in view). */
  | { type: "status-line-text"; text: string }
  | { type: "status-line-failed"; error: string }
  /** Ctrl+G's editor gave the input back: it replaces the input, the cursor at its end. */
  | { type: "input-edited"; text: string }
  | { type: "shell-done"; command: string; output: string; exitCode: number | null }
  /** The terminal gained or lost focus (focus reporting). */
  | { type: "focus"; focused: boolean }
  /** The terminal's answer to a mode query (DECRPM): `state` 1-3 knows the mode, 0 and 4 do not. */
  | { type: "terminal-mode"; mode: number; state: number }
  /** The terminal answered the kitty keyboard protocol's query (CSI ? u) with the flags in force. */
  | { type: "keyboard-protocol"; flags: number }
  /** The terminal's background colour (its answer to OSC 11), each channel 0..1. */
  | { type: "terminal-background"; rgb: [number, number, number] }
  /** MCP servers to run and to ask about: after a trust decision, or re-read at /new. */
  | { type: "mcp-config"; mcp: McpConfigured; warnings: string[]; skills?: SkillRef[] }
  /**
   * Everything loaded after the first frame: the validated config, the resumed conversation,
   * the system prompt and skills. Runs wait for it.
   */
  | {
      type: "boot-ready";
      config: RunConfig;
      sessionId: string;
      conversation: ConversationMessage[];
      tokensUsed?: number;
      /** Config toolOutputLines: lines an expanded tool entry shows. */
      toolOutputLines?: number;
      skills: SkillRef[];
      /** The system prompt's parts, full and for a small window (/context). */
      promptParts?: { full: PromptPart[]; lean: PromptPart[] };
      warnings: string[];
      /** Inputs of earlier launches in this folder, oldest first. */
      history?: string[];
      notify?: NotifyMode;
      /** Config `steer`: false makes Enter during a run queue for after it. */
      steer?: boolean;
      /** Config `messageIdleNotifThresholdMs`: the idle wait before Notification's `idle_prompt`. */
      idleNotifyMs?: number;
      /** The MCP servers to start and those waiting for trust (none when absent). */
      mcp?: McpConfigured;
      /** What the terminal's environment says it shows (ui/runtime/terminal-support.ts). */
      terminal?: Omit<TerminalCaps, "keyboard">;
      /** Config `theme`. */
      theme?: ColourTheme;
      /** The theme the environment suggests (COLORFGBG), when the terminal does not answer OSC 11. */
      backgroundHint?: ColourTheme;
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
  /** The engine offer accepted: install the engine if missing, download the model (offer-progress, offer-done). */
  | { type: "accept-offer"; offer: EngineOffer }
  | { type: "cancel-offer" }
  | { type: "list-sessions" }
  | { type: "save-config"; keys: Record<string, unknown> }
  /** `conversation`: for /context, which shows what the messages take of the window. */
  | { type: "show"; what: "memory" | "agents" }
  /** /doctor: what holds on this machine, with what the terminal answered at start. */
  | { type: "doctor"; terminal: { syncOutput: boolean; keyboard: "legacy" | "kitty"; theme: string } }
  /** `tokensUsed`: the session's total, kept after the turn is undone (it was spent). */
  | { type: "undo"; force: boolean; sessionId: string; conversation: ConversationMessage[]; tokensUsed: number }
  /** /export [file]: the conversation as Markdown. */
  | { type: "export"; file?: string; conversation: ConversationMessage[]; model: string }
  /** /diff: what this session changed, against its checkpoints (answer: session-diff). */
  | { type: "session-diff" }
  /** /review: read the change to review (answer: review-diff). */
  | { type: "review-diff"; target: ReviewTarget; typed: string }
  | {
      type: "rewind";
      request: RewindRequest;
      force: boolean;
      sessionId: string;
      conversation: ConversationMessage[];
      tokensUsed: number;
    }
  /** Remember the user's answer on project MCP servers; answered by an mcp-config Msg. */
  | { type: "mcp-trust"; decisions: { name: string; decision: McpTrustDecision }[] }
  /** `a` in the permission dialog chose a project rule: write it to the project's settings (answer: mcp-config). */
  | { type: "save-permission-rule"; rule: string }
  /** `/permissions remove`: take a rule out of the settings file it came from (answer: mcp-config). */
  | { type: "remove-permission-rule"; rule: string; file: string }
  /** `/plugins enable|disable <name>`: saved to the config, then an mcp-config Msg and a notice. */
  | { type: "plugin-enable"; name: string; enabled: boolean }
  /** Read the MCP config again (at /new); answered by an mcp-config Msg. */
  | { type: "mcp-reload" }
  /** Rank the project's paths for an @ query; `refresh`: a new @, list the project again. */
  | { type: "match-files"; query: string; refresh: boolean }
  /** Attach the files `mentions` name (the @server:uri ones go to the worker instead). */
  | { type: "read-mentions"; text: string; mentions: string[] }
  /** The user's own `!command`: run in the project folder, no approval. */
  | { type: "shell"; command: string }
  | { type: "shell-cancel" }
  | { type: "history-append"; text: string }
  /** Run the config's statusLine command with `input` on stdin (throttled; answer: status-line-text or -failed). */
  | { type: "status-line"; command: string; input: StatusLineInput }
  /** /add-dir <path>: check the folder (answer: dir-added, or a notice). */
  | { type: "add-dir"; path: string; cwd: string }
  /** Ctrl+G: open `text` (the input, pastes expanded) in $VISUAL/$EDITOR (answer: input-edited, or a notice). */
  | { type: "edit-input"; text: string }
  /** Ctrl+Z: give the terminal back as it was and stop the process, as a shell's job control would; resume on SIGCONT. */
  | { type: "suspend" }
  /** Draw the user's attention (the terminal is not focused). */
  | { type: "notify"; mode: "bell" | "osc9"; text: string }
  /** Hands `msg` back to update after `ms` milliseconds (a hint that goes away by itself). */
  | { type: "after"; ms: number; msg: Msg }
  | { type: "quit" };
