// The Model a session starts from. Its own module because the boot frame (src/boot.ts) is drawn
// from it before the rest of update loads.
import { produce } from "immer";
import type { InitOptions, Model } from "../model.js";
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
    notify: "bell",
    stats: { turns: 0, toolCalls: 0, tokensIn: 0, tokensOut: 0, startedAt: opts.now, byModel: {} },
    mcp: [],
    jobs: [],
    escapeArmed: false,
    mcpProject: { pending: [], denied: [], trusted: [] },
    quitting: false,
    exitArm: { armed: false, seq: 0 },
    idle: { ms: IDLE_NOTIFY_MS, seq: 0, armed: false, touched: false },
    unsaved: false,
    statusCommand: { asked: "", text: null, failedTold: false },
  };
  return produce(model, (m) => transcriptFromStart(m));
}

/** The transcript of `m.conversation` from its start: a fresh welcome, then its entries rebuilt. */
export function transcriptFromStart(m: Model): void {
  m.entries = [];
  addEntry(m, { kind: "welcome", model: m.config.model, server: serverLabel(m.config), cwd: m.config.cwd });
  const rebuilt = entriesFromConversation(m.conversation, m.nextId);
  m.entries.push(...rebuilt.entries);
  m.nextId = rebuilt.nextId;
}

/** The provider and the address its requests go to, for the header. */
function serverLabel(config: Model["config"]): string {
  return `${config.provider} · ${config.provider === "ollama" ? config.host : (config.baseUrl ?? "")}`;
}

/** The smallest screen the layout is drawn for. */
export function screenSize(width: number, height: number): { width: number; height: number } {
  return { width: Math.max(10, width), height: Math.max(5, height) };
}
