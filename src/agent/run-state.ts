// The state of one run, as one value: what the loop's stages (loop.ts, run-steps.ts) read and
// change — the conversation, the config the run has learned, the tools and their schemas, the
// stuck counters — and the run's opening (the model's facts, the images check, the approver).
import type { DoneReason, RunEvent } from "../protocol/agent-event.js";
import type { ConversationMessage, ToolCall } from "../protocol/conversation.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { ToolSpec } from "../protocol/tool-spec.js";
import type { Provider } from "../providers/types.js";
import type { ClientIo, ToolContext, ToolDef } from "../tools/types.js";
import { toolSpecs } from "../tools/runner.js";
import { createSessionMemory, type SessionMemory } from "../tools/session-memory.js";
import type { ToolOutcome } from "./tool-call.js";
import { protocolConstraint, type ReplyConstraint } from "./replies/protocol-schema.js";
import { createStuckState, type StuckState } from "./stuck.js";
import { sentTools } from "./request.js";
import { createApprover, type AskUser } from "./approval.js";
import { ensureModelInfo, failedNativeCalls, imagesRefused, saneTokenCount, type Prefetched } from "./model-info.js";
import { warnIfOllamaBehindOpenAI, withLocalServers } from "./local-servers.js";
import type { EngineOffer } from "../protocol/engine-offer.js";
import type { PreviousRequest } from "./cache-miss.js";
import { newestUserIndex } from "./compaction/index.js";

export interface LoopDeps {
  provider: Provider;
  /** A function when the list can change during the run (an MCP server's list_changed): read before each step. */
  tools: ToolDef[] | (() => ToolDef[]);
  emit: (e: RunEvent) => void;
  signal: AbortSignal;
  askUser: AskUser;
  /** A sub-agent uses its parent's approval instead of a policy of its own. */
  approve?: ToolContext["approve"];
  /** Checkpoint hook: called before a tool writes a file. */
  beforeWrite?: (absPath: string) => Promise<void>;
  /** The permission mode now, when the user may change it during the run (Shift+Tab); default: the config's. */
  permissionMode?: () => PermissionMode;
  /** Sub-agent depth (0 = the user's own agent). */
  depth?: number;
  /** What the session's tools remember (a sub-agent shares its parent's); default: a fresh memory. */
  memory?: SessionMemory;
  /** Model lookups the session started early (prefetch-model-info). */
  prefetched?: Prefetched;
  /** Messages the user typed during the run, taken at each step boundary (the user's own agent only). */
  takeSteers?: () => ConversationMessage[];
  /** An editor's file system and terminal, when the session's client offers them (agent0 acp). */
  client?: ClientIo;
}

export interface LoopResult {
  reason: DoneReason;
  /** The messages this run appended, in order. */
  appended: ConversationMessage[];
  /** The final assistant text (for headless output and sub-agents). */
  answer: string;
  conversation: ConversationMessage[];
}

/** Both reply schemas of one tool set, each built the first time a step needs it. */
export interface Constraints {
  reply(): ReplyConstraint;
  calls(): ReplyConstraint;
}

export interface RunState {
  readonly deps: LoopDeps;
  readonly depth: number;
  readonly memory: SessionMemory;
  /** The permission mode now (the user may change it during the run). */
  readonly mode: () => PermissionMode;
  readonly approve: ToolContext["approve"];
  conversation: ConversationMessage[];
  readonly appended: ConversationMessage[];
  /** The caller's config is never changed; what this run learns lives in its own copy. */
  config: RunConfig;
  /**
   * A skill's allowed-tools (typed as /skill, or loaded by the model) limits every later step. The
   * model is still sent every tool, in the same order: a call outside the list is refused when it
   * runs, so the tool list, the front of every request, never changes and the prompt cache holds.
   */
  allowed: string[] | undefined;
  /** The tool list the run was last given, and what of it the model is sent. */
  source: ToolDef[];
  tools: ToolDef[];
  specs: ToolSpec[];
  constraints: Constraints;
  /** The step after a native-tools model's unreadable call decodes under the call schema. */
  constrainNext: boolean;
  stuck: StuckState;
  /** The user's new message opens this run: until the model answers, it may be refused whole (never cut). */
  readonly asking: boolean;
  /** The request before this one (what the server's cache should hold), reset by a compaction. */
  lastRequest: PreviousRequest | undefined;
  /** Compaction never runs twice without new content in between. */
  compactedLength: number;
  /** One compaction and retry per run for a prompt the server refused as too long. */
  overflowRetried: boolean;
  stopHookActive: boolean;
  /** A hook's `continue: false` (Claude Code's): the run ends after the step, its reason told the user. */
  hookStop: string | undefined;
}

/** Appends a message to the run: posted as a `message` event the moment it exists. */
export function push(run: RunState, m: ConversationMessage): void {
  run.conversation.push(m);
  run.appended.push(m);
  run.deps.emit({ type: "message", message: m });
}

export function pushToolResult(
  run: RunState,
  call: ToolCall,
  outcome: string | Pick<ToolOutcome, "content" | "display" | "images">,
): void {
  const { content, display, images } = typeof outcome === "string" ? { content: outcome } : outcome;
  const m: ConversationMessage = { role: "tool", content, toolCallId: call.id, toolName: call.name };
  if (display) m.display = display;
  if (images) m.images = images;
  push(run, m);
}

export function finish(run: Pick<RunState, "appended" | "conversation">, reason: DoneReason): LoopResult {
  const last = [...run.appended].reverse().find((m) => m.role === "assistant" && m.content.trim());
  return { reason, appended: run.appended, answer: last?.content ?? "", conversation: run.conversation };
}

/**
 * The run's opening: the model's facts (asked once per session), the images check, the tool
 * protocol the session settled on, the tools and the approver. A run that cannot start ends here.
 */
export async function openRun(
  initial: ConversationMessage[],
  runConfig: RunConfig,
  deps: LoopDeps,
): Promise<RunState | LoopResult> {
  const { provider, emit, signal } = deps;
  const conversation = [...initial];
  const depth = deps.depth ?? 0;
  const memory = deps.memory ?? createSessionMemory(runConfig.sessionId);
  const info = await ensureModelInfo(provider, runConfig, signal, emit, deps.prefetched);
  if (!info.ok) {
    const said: { message: string; hint?: string; offer?: EngineOffer } = signal.aborted
      ? info
      : await withLocalServers(runConfig, info);
    emit({ type: "error", message: said.message, hint: said.hint, ...(said.offer && { offer: said.offer }) });
    return finish({ appended: [], conversation }, signal.aborted ? "interrupted" : "error");
  }
  // A session's first run (headless, or before the TUI's probe answered) checks the server once.
  if (saneTokenCount(runConfig.numCtx) === undefined && depth === 0) await warnIfOllamaBehindOpenAI(info.config, emit);
  const sight = depth === 0 ? await imagesRefused(provider, info.config, conversation, signal) : undefined;
  if (sight?.refusal) {
    emit({ type: "error", message: sight.refusal });
    return finish({ appended: [], conversation }, "error");
  }
  const config = pinSlot(sight?.config ?? info.config, depth);
  if (config.toolProtocol === "native" && failedNativeCalls(memory)) config.toolProtocol = "json";
  const mode = deps.permissionMode ?? (() => runConfig.permissionMode);
  // A sub-agent starts a conversation of its own: its type's tools are all it is sent.
  const source = typeof deps.tools === "function" ? deps.tools() : deps.tools;
  const tools = sentTools(config, source, deps.depth);
  const specs = toolSpecs(tools);
  return {
    deps,
    depth,
    memory,
    mode,
    approve: deps.approve ?? createApprover(config, deps.askUser, emit, mode),
    conversation,
    appended: [],
    config,
    allowed: config.toolFilter,
    source,
    tools,
    specs,
    constraints: constraintsFor(specs),
    constrainNext: false,
    stuck: createStuckState(),
    asking: depth === 0 && opensWithUserMessage(initial),
    lastRequest: undefined,
    compactedLength: -1,
    overflowRetried: false,
    stopHookActive: false,
    hookStop: undefined,
  };
}

/** A changed MCP tool list is taken at the next step: the tools, their schemas and constraints again. */
export function refreshTools(run: RunState): void {
  const now = typeof run.deps.tools === "function" ? run.deps.tools() : run.deps.tools;
  if (now === run.source) return;
  run.source = now;
  run.tools = sentTools(run.config, now, run.deps.depth);
  run.specs = toolSpecs(run.tools);
  run.constraints = constraintsFor(run.specs);
}

/** A skill loaded during the run narrows the tools for its rest. */
export function restrictTools(run: RunState, names: string[]): void {
  run.allowed = run.allowed ? run.allowed.filter((n) => names.includes(n)) : [...names];
  run.deps.emit({
    type: "notice",
    level: "info",
    text: `Tools for the rest of this run: ${run.allowed.join(", ") || "none"}.`,
  });
}

export function constraintsFor(specs: ToolSpec[]): Constraints {
  let reply: ReplyConstraint | undefined;
  let calls: ReplyConstraint | undefined;
  return {
    reply: () => (reply ??= protocolConstraint(specs)),
    calls: () => (calls ??= protocolConstraint(specs, true)),
  };
}

/** The run's input ends with the user's message (after it only mode notes and hooks' context). */
export function opensWithUserMessage(initial: readonly ConversationMessage[]): boolean {
  const at = newestUserIndex(initial);
  return at >= 0 && initial.slice(at + 1).every((m) => m.role === "user");
}

/**
 * llama.cpp keeps one prompt cache per slot, and a request may take any free slot: a sub-agent's
 * request would evict the conversation's cache (ggml-org/llama.cpp#13194). With more than one
 * slot, the user's conversation keeps slot 0 and sub-agents share the others, by depth.
 */
export function pinSlot(config: RunConfig, depth: number): RunConfig {
  const slots = config.slots ?? 0;
  if (slots < 2) return config.slot === undefined ? config : { ...config, slot: undefined };
  return { ...config, slot: depth === 0 ? 0 : 1 + ((depth - 1) % (slots - 1)) };
}
