import type { EngineOffer } from "../protocol/engine-offer.js";
import type { FileMatches } from "../protocol/file-index.js";
import type { BackgroundJobView } from "../protocol/jobs.js";
import type { NoticeLevel, Phase } from "../protocol/agent-event.js";
import type { ConversationMessage } from "../protocol/conversation.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { CommandItem, MentionItem, MenuState, NotifyMode, SessionStats, TodoItem } from "./steer-types.js";
import type { Skill } from "../context/skills.js";
import type { PromptPart } from "../context/prompt.js";
import type { McpServerView, McpTrustRequest } from "../protocol/mcp-state.js";
import type { PluginView } from "../protocol/plugins.js";
import type { ColourTheme } from "../render/theme.js";

/** One item of the transcript as the user sees it. Entries are immutable: a change makes a new object. */
export type Entry =
  /** `server`: the provider and where its requests go, e.g. "anthropic · https://api.anthropic.com". */
  | { kind: "welcome"; id: number; model: string; server: string; cwd: string }
  | { kind: "user"; id: number; text: string; note?: string }
  | { kind: "todos"; id: number; items: TodoItem[] }
  | { kind: "shell"; id: number; command: string; output: string; exitCode: number | null; running: boolean }
  | { kind: "assistant"; id: number; text: string; thinking: string; streaming: boolean; interrupted: boolean }
  | {
      kind: "tool";
      id: number;
      callId: string;
      /** The tool's name (run_shell_command, read_file, …). */
      name: string;
      label: string;
      state: "running" | "ok" | "error";
      summary: string;
      startedAt: number;
      depth: number;
      /** What the tool printed, shown under its line on Ctrl+O (see ToolDisplay.output). */
      output?: string;
      outputLang?: string;
      /** The tool's last progress report, e.g. "3/5" (MCP notifications/progress). */
      progress?: string;
    }
  | { kind: "diff"; id: number; path: string; unified: string; depth: number }
  | { kind: "notice"; id: number; level: NoticeLevel; text: string }
  | { kind: "error"; id: number; message: string; hint?: string };

/** What a picker chooses: a model, a session, or /rewind's message, then what it restores, then whether to overwrite. */
export type PickerPurpose = "model" | "session" | "rewind" | "rewind-restore" | "rewind-force";

/** What /rewind puts back: files and conversation, the conversation alone, or the files alone. */
export type RewindRestore = "both" | "conversation" | "code";

/** One /rewind the user chose: to before the user message at `turn` (its index in the conversation). */
export interface RewindRequest {
  turn: number;
  restore: RewindRestore;
  /** The message as typed: it comes back into the input. */
  typed: string;
}

export interface PickerItem {
  value: string;
  label: string;
  detail?: string;
  /** What is in use now (the model, the session): the picker opens on it and marks it. */
  current?: boolean;
}

export interface PermissionDialog {
  kind: "permission";
  id: string;
  tool: string;
  /** Everything being approved: the whole command or diff. */
  preview: string;
  /** What "always" adds to the session's allowedTools (the tool, or `web_fetch:host`). */
  allowKey: string;
  /** Why this asks when the mode would not (a protected path, a path outside the project...). */
  why?: string;
  /** A shell command: what `a` offers (the exact command, its prefix for the project, the tool). */
  alwaysOptions?: { label: string; rule: string; scope: "session" | "project" }[];
  /** `a` was pressed on a request with alwaysOptions: the one chosen now (null: not choosing). */
  alwaysChoice: number | null;
  /** Body lines scrolled past. */
  scroll: number;
  /** The last body line has been on screen: only then do the allow keys act. */
  seenEnd: boolean;
  /** The reason being typed after `e` (null: not typing one). */
  reason: string | null;
  /** When it opened: the tool's clock stands still until it is answered. */
  openedAt: number;
}

export type Dialog =
  | PermissionDialog
  | { kind: "picker"; purpose: PickerPurpose; title: string; items: PickerItem[]; selected: number }
  | McpTrustDialog
  | EngineOfferDialog;

/** No server answered: agent0 offers to run a model itself (Enter installs and downloads, Esc declines). */
export interface EngineOfferDialog {
  kind: "engine-offer";
  offer: EngineOffer;
  /** The latest line of the install or download once accepted (null: still asking). */
  progress: string | null;
}

/** What the trust dialog's Enter does: to the server shown, or to every one still waiting. */
export type McpTrustChoice = "allow-one" | "deny-one" | "allow-all" | "deny-all";

/** A project's own MCP servers, which start only once the user says yes: asked one at a time. */
export interface McpTrustDialog {
  kind: "mcp-trust";
  /** Still to answer; the first is the one asked about. */
  servers: McpTrustRequest[];
  choice: McpTrustChoice;
  /** Answers given so far, sent together when the last server is answered. */
  decisions: { name: string; decision: "allow" | "deny" }[];
}

export interface RunState {
  /** Sent with the run's command; events of any other run are dropped. */
  id: number;
  startedAt: number;
  phase: Phase;
  /** The assistant entry receiving this run's streamed text, once text has arrived. */
  streamingId?: number;
  /** Steer messages taken by the loop whose `message` event is still to come (shown as the user's, not as a notice). */
  steeredPending?: number;
  /** The tool a constrained reply is calling, while it streams (the status line names it). */
  writing?: string;
  /** A hook command running now (the status line names it). */
  hook?: { event: string; command: string };
}

export interface Model {
  width: number;
  height: number;
  /** The clock, as of the last tick (update never reads a clock itself). */
  now: number;
  entries: Entry[];
  nextId: number;
  /** What the model sees: the saved conversation, system prompt excluded. */
  conversation: ConversationMessage[];
  input: { text: string; cursor: number };
  history: string[];
  /** Index into history while walking it with Up/Down; null when editing a fresh line. */
  historyPos: number | null;
  draft: string;
  run: RunState | null;
  /** The id the next run or compaction gets. */
  nextRunId: number;
  /** Messages typed while a run was going, sent when it ends (Alt+Enter, or `steer: false` in the config). */
  queued: string[];
  /** Messages typed during the run, sent to the worker to reach the model at its next step; not taken yet. */
  steering: { id: number; text: string }[];
  /** The id of the last steer message sent. */
  steerSeq: number;
  /** Enter during a run steers it (default); false: Enter queues for after the run, as Alt+Enter does. */
  steerOnEnter: boolean;
  /** Settings, session and skills have loaded (boot-ready); lines sent before are queued. */
  booted: boolean;
  /** An answer has arrived in this session: the model is loaded (else the status says "loading model…"). */
  warm: boolean;
  /** The model is being loaded ahead of the first request. */
  loadingModel: boolean;
  /**
   * Scrolled up: the top line of the view, as an entry id and a line within that entry, so the
   * view holds still while text arrives below; `below` is how many lines were below the view when
   * the user scrolled (the status line counts what arrived since). null follows new output.
   */
  anchor: { id: number; line: number; below: number } | null;
  thinkingOpen: boolean;
  /** Ctrl+O: tool entries show their output. */
  toolOutputOpen: boolean;
  /** Lines of output an expanded tool entry shows before "+N more lines" (config toolOutputLines). */
  toolOutputLines: number;
  dialog: Dialog | null;
  /** Base settings for every run; apiKey lives only in memory. */
  config: RunConfig;
  contextLength: number;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
  /** What the worker reported of the prompts it sent, for /context. */
  prompt: PromptFigures;
  /** The system prompt's parts, full and for a small window (/context); none until boot-ready. */
  promptParts: { full: PromptPart[]; lean: PromptPart[] };
  sessionId: string;
  skills: SkillRef[];
  /** The slash menu's items: built-in commands, skills, custom commands and other sources. */
  commands: CommandItem[];
  /** Candidates of @ completion that do not come from the project's files (e.g. MCP resources). */
  mentionItems: MentionItem[];
  /** The file index's last answer for @ completion (null: none yet); it ranks every path of the project. */
  files: FileMatches | null;
  /** The query the file index was last asked (null: the @ menu is closed). */
  filesAsked: string | null;
  menu: MenuState | null;
  /** The input for which Esc closed the menu: it stays closed until the input changes. */
  menuClosedFor: string | null;
  /** Shift+Tab cycles through yolo only when the app was started in yolo mode. */
  yoloInCycle: boolean;
  /** The user chose the mode (Shift+Tab, /permissions): boot's settings do not override it. */
  modeChosen: boolean;
  /** A plan arrived in plan mode: the prompt to carry it out is shown under it. */
  planReady: boolean;
  /** The model's todo list (todo_write), pinned above the input while a run goes. */
  todos: TodoItem[];
  /** A `!command` of the user's, running. */
  shell: { command: string; startedAt: number } | null;
  /** A line whose @mentions are being read; it is sent when they arrive. */
  attaching: string | null;
  /** Ctrl+R: incremental search through the input history. */
  historySearch: { query: string; index: number | null } | null;
  /** Large pastes, collapsed in the input to `[Pasted text #n +k lines]` (n = index + 1). */
  pastes: string[];
  /** The terminal has focus (focus reporting); notifications are sent only without it. */
  focused: boolean;
  /** The terminal said it knows synchronized output (mode 2026): each frame is drawn whole or not at all. */
  syncOutput: boolean;
  /** What else the terminal can do, as it answered our queries or as its environment says. */
  terminal: TerminalCaps;
  /**
   * The colours, and who chose them: the config or /theme over the terminal's answer (OSC 11)
   * over its environment (COLORFGBG) over the default, dark.
   */
  theme: { name: ColourTheme; source: ThemeSource };
  /** The last run ended in an error: the terminal's progress shows the error state until the next. */
  runFailed: boolean;
  /** Tab pressed on an @ mention before the file index answered it: the input as it was then. */
  tabPending: string | null;
  notify: NotifyMode;
  stats: SessionStats;
  /** The MCP servers as the worker last reported them (for /mcp, prompts and @server:uri). */
  mcp: McpServerView[];
  /** The session's background shell commands as the worker last reported them (/jobs, the status line). */
  jobs: BackgroundJobView[];
  /** The project's servers not answered yet and declined (/mcp trust asks about one), and trusted (/mcp untrust stops one). */
  mcpProject: { pending: McpTrustRequest[]; denied: McpTrustRequest[]; trusted: string[] };
  /** The Agent Plugins found (user's and project's), for /plugins. */
  plugins: PluginView[];
  quitting: boolean;
  /**
   * A first Ctrl+C on an empty, idle input arms the exit: the status line says "Press Ctrl+C
   * again to exit" until a second press quits, another key disarms it, or its timer (seq) ends.
   */
  exitArm: { armed: boolean; seq: number };
  /**
   * The wait after an answer before Notification hooks hear `idle_prompt` (update/idle.ts): `armed`
   * while wait `seq` runs, `touched` when the user typed during it.
   */
  idle: { ms: number; seq: number; armed: boolean; touched: boolean };
  /** The last key was Esc on an empty, idle input: a second one opens /rewind. */
  escapeArmed: boolean;
  /** Saving the session failed and has not worked since: the status line says "not saved". */
  unsaved: boolean;
  /**
   * The config's `statusLine.command`: the state last sent to it (a key), its first line of output
   * (null: none, or it failed), and whether its failure was told.
   */
  statusCommand: { asked: string; text: string | null; failedTold: boolean };
}

export type ThemeSource = "default" | "environment" | "terminal" | "config";

/** The terminal's features beyond the basics (ui/runtime/terminal-support.ts reads its environment). */
export interface TerminalCaps {
  /** "kitty": it answered the kitty keyboard protocol's query, so keys are told apart by their modifiers. */
  keyboard: "legacy" | "kitty";
  /** It shows OSC 8 hyperlinks. */
  hyperlinks: boolean;
  /** It shows OSC 9;4 progress in its tab or the taskbar. */
  progress: boolean;
  /** This machine's name, for file links. */
  host: string;
}

/** Skills as main loaded them; the UI only expands them (pure). */
export type SkillRef = Skill;

export interface InitOptions {
  width: number;
  height: number;
  now: number;
  config: RunConfig;
  sessionId: string;
  skills?: SkillRef[];
  conversation?: ConversationMessage[];
  history?: string[];
  /** False when settings, session and skills still load after the first frame (default true). */
  booted?: boolean;
  /** A transcript already built (the boot frame's): its entries are taken if built from this very conversation. */
  builtFrom?: Transcript;
}

/** A transcript and the conversation its entries were rebuilt from. */
export type Transcript = Pick<Model, "conversation" | "entries" | "nextId">;

/** The figures of the last request and of the server's prompt cache over the session. */
export interface PromptFigures {
  /** What the tool schemas cost (an estimate), once a request was sent. */
  toolTokens?: number;
  /** Requests whose server said how much of the prompt came from its cache. */
  cacheRequests: number;
  /** Of those: tokens read from the cache, and all their prompt tokens. */
  cachedTokens: number;
  promptTokens: number;
  /** The last such request's cached tokens and prompt tokens. */
  last?: { cached: number; prompt: number };
}
