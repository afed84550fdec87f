// The Model a session starts from. Its own module because the boot frame (src/boot.ts) is drawn
// from it before the rest of update loads.
import type { ConversationMessage } from "../../protocol/conversation.js";
import type { InitOptions, Model, Transcript } from "../model.js";
import { addEntry, entriesFromConversation } from "./transcript.js";
import { commandItems } from "./menu.js";
import { lastTodos } from "./todos.js";
import { IDLE_NOTIFY_MS } from "./idle.js";

/** Lines an expanded tool entry shows before "+N more lines". */
export const DEFAULT_TOOL_OUTPUT_LINES = 200;

export function init(opts: InitOptions): Model {
  const model: Model = {
    width: opts.width,
    height: opts.height,
    now: opts.now,
    entries: [],
    nextId: 1,
    conversation: opts.conversation ?? [],
    input: { text: "", cursor: 0 },
    history: opts.history ?? [],
    historyPos: null,
    draft: "",
    run: null,
    nextRunId: 1,
    queued: [],
    steering: [],
    steerSeq: 0,
    steerOnEnter: true,
    booted: opts.booted ?? true,
    warm: false,
    loadingModel: false,
    anchor: null,
    thinkingOpen: false,
    toolOutputOpen: false,
    toolOutputLines: DEFAULT_TOOL_OUTPUT_LINES,
    dialog: null,
    config: opts.config,
    contextLength: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    prompt: { cacheRequests: 0, cachedTokens: 0, promptTokens: 0 },
    promptParts: { full: [], lean: [] },
    sessionId: opts.sessionId,
    skills: opts.skills ?? [],
    commands: commandItems(opts.skills ?? []),
    mentionItems: [],
    files: null,
    filesAsked: null,
    menu: null,
    menuClosedFor: null,
    yoloInCycle: opts.config.permissionMode === "yolo",
    modeChosen: false,
    planReady: false,
    todos: lastTodos(opts.conversation ?? []),
    shell: null,
    attaching: null,
    historySearch: null,
    pastes: [],
    focused: true,
    syncOutput: false,
    terminal: { keyboard: "legacy", hyperlinks: false, progress: false, host: "" },
    theme: { name: "dark", source: "default" },
    runFailed: false,
    tabPending: null,
    notify: "bell",
    stats: { turns: 0, toolCalls: 0, tokensIn: 0, tokensOut: 0, startedAt: opts.now, byModel: {} },
    mcp: [],
    jobs: [],
    escapeArmed: false,
    mcpProject: { pending: [], denied: [], trusted: [] },
    plugins: [],
    quitting: false,
    exitArm: { armed: false, seq: 0 },
    idle: { ms: IDLE_NOTIFY_MS, seq: 0, armed: false, touched: false },
    unsaved: false,
    statusCommand: { asked: "", text: null, failedTold: false },
  };
  // Built as a plain object and frozen once, not through a draft: a resumed session's thousands of
  // entries pushed through immer's proxies and walked by its finalize cost ~3× as much. Later
  // updates skip what is frozen.
  transcriptFromStart(model, opts.builtFrom);
  return freezeDeep(model);
}

/** Object.freeze all the way down (immer's own `freeze(value, true)` walks it ~3× slower). */
function freezeDeep<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) for (const item of value as unknown[]) freezeDeep(item);
  else for (const key in value) freezeDeep(value[key]);
  return value;
}

/**
 * The transcript of `m.conversation` from its start: a fresh welcome, then its entries rebuilt,
 * or taken from `built` when it was built from the very same messages (a resumed launch's boot
 * frame, main's model and the boot's end all show one conversation: it is built once). `built`
 * is never a draft: its entries are read whole.
 */
export function transcriptFromStart(m: Model, built?: Transcript): void {
  const welcome = { kind: "welcome", model: m.config.model, server: serverLabel(m.config), cwd: m.config.cwd } as const;
  const first = built?.entries[0];
  if (built && first?.kind === "welcome" && sameMessages(built.conversation, m.conversation)) {
    // The welcome shows the config, which may have changed (the config file, the session's model).
    m.entries = [{ ...welcome, id: first.id }, ...built.entries.slice(1)];
    m.nextId = built.nextId;
    return;
  }
  m.entries = [];
  addEntry(m, welcome);
  const rebuilt = entriesFromConversation(m.conversation, m.nextId);
  m.entries.push(...rebuilt.entries);
  m.nextId = rebuilt.nextId;
}

/** The same message objects in the same order. */
function sameMessages(a: ConversationMessage[], b: ConversationMessage[]): boolean {
  return a === b || (a.length === b.length && a.every((message, i) => message === b[i]));
}

/** The provider and the address its requests go to, for the header. */
function serverLabel(config: Model["config"]): string {
  return `${config.provider} · ${config.provider === "ollama" ? config.host : (config.baseUrl ?? "")}`;
}

/** The smallest screen the layout is drawn for. */
export function screenSize(width: number, height: number): { width: number; height: number } {
  return { width: Math.max(10, width), height: Math.max(5, height) };
}
