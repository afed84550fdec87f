import type { RunEvent, DoneReason } from "../protocol/agent-event.js";
import type { ConversationMessage, ToolCall } from "../protocol/conversation.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { ToolSpec } from "../protocol/tool-spec.js";
import type { Provider } from "../providers/types.js";
import type { ClientIo, ToolContext, ToolDef } from "../tools/types.js";
import { toolSpecs } from "../tools/runner.js";
import { runCalls, type ToolOutcome } from "./tool-call.js";
import { callModel } from "./model-call.js";
import { CALL_CONSTRAINT, protocolConstraint, type ReplyConstraint } from "./replies/protocol-schema.js";
import { createStuckState, observeStep } from "./stuck.js";
import { correctiveMessage } from "./replies/json-protocol.js";
import { sentTools, systemMessage } from "./request.js";
import { createApprover, type AskUser } from "./approval.js";
import { modeReminder } from "../protocol/mode-notes.js";
import {
  ensureModelInfo,
  failedNativeCalls,
  imagesRefused,
  noteNativeFailure,
  saneTokenCount,
  type Prefetched,
} from "./model-info.js";
import { createSessionMemory, type SessionMemory } from "../tools/session-memory.js";
import { warnIfOllamaBehindOpenAI, withLocalServers } from "./local-servers.js";
import { compactIfNeeded, overheadTokens, toolSpecTokens } from "./compaction/run.js";
import { newestMessageRefusal, newestUserIndex } from "./compaction/index.js";
import { recoverFromOverflow } from "./overflow-retry.js";
import { cacheMissNotice, type PreviousRequest } from "./cache-miss.js";
import { hasHooks, runHooks } from "./hooks/hooks.js";

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

/**
 * runAgent: call the model, run the tools it asks for, repeat — until it answers, the user
 * interrupts, a stuck rule fires or the step cap is reached. Every appended message is posted
 * as a `message` event the moment it exists, so the UI (and the session file) never lag behind.
 */
export async function runAgent(
  initial: ConversationMessage[],
  runConfig: RunConfig,
  deps: LoopDeps,
): Promise<LoopResult> {
  const { provider, emit, signal } = deps;
  let conversation = [...initial];
  const appended: ConversationMessage[] = [];
  const push = (m: ConversationMessage) => {
    conversation.push(m);
    appended.push(m);
    emit({ type: "message", message: m });
  };
  const finish = (reason: DoneReason): LoopResult => {
    const last = [...appended].reverse().find((m) => m.role === "assistant" && m.content.trim());
    return { reason, appended, answer: last?.content ?? "", conversation };
  };

  const memory = deps.memory ?? createSessionMemory(runConfig.sessionId);
  const info = await ensureModelInfo(provider, runConfig, signal, emit, deps.prefetched);
  if (!info.ok) {
    const said = signal.aborted ? info : await withLocalServers(runConfig, info);
    emit({ type: "error", message: said.message, hint: said.hint });
    return finish(signal.aborted ? "interrupted" : "error");
  }
  // A session's first run (headless, or before the TUI's probe answered) checks the server once.
  if (saneTokenCount(runConfig.numCtx) === undefined && (deps.depth ?? 0) === 0)
    await warnIfOllamaBehindOpenAI(info.config, emit);
  // The caller's config is never changed; what this run learns lives in its own copy.
  const sight = (deps.depth ?? 0) === 0 ? await imagesRefused(provider, info.config, conversation, signal) : undefined;
  if (sight?.refusal) {
    emit({ type: "error", message: sight.refusal });
    return finish("error");
  }
  let config = sight?.config ?? info.config;

  if (config.toolProtocol === "native" && failedNativeCalls(memory)) config.toolProtocol = "json";
  config = pinSlot(config, deps.depth ?? 0);

  // A skill's allowed-tools (typed as /skill, or loaded by the model) limits every later step. The
  // model is still sent every tool, in the same order: a call outside the list is refused when it
  // runs, so the tool list, the front of every request, never changes and the prompt cache holds.
  let allowed = config.toolFilter;
  const mode = deps.permissionMode ?? (() => runConfig.permissionMode);
  // A sub-agent starts a conversation of its own: its type's tools are all it is sent; a changed
  // MCP tool list is taken at the next step.
  let source = typeof deps.tools === "function" ? deps.tools() : deps.tools;
  // A hook's `continue: false` (Claude Code's): the run ends after the step, its reason told the user.
  let hookStop: string | undefined;
  const own = (list: ToolDef[]) => sentTools(config, list, deps.depth);
  let tools = own(source);
  const latestTools = () => {
    const now = typeof deps.tools === "function" ? deps.tools() : deps.tools;
    if (now !== source) {
      source = now;
      tools = own(now);
    }
    return tools;
  };
  let specs = toolSpecs(tools);
  let constraints = constraintsFor(specs);
  // The step after a native-tools model's unreadable call decodes under the call schema.
  let constrainNext = false;
  const restrictTools = (names: string[]) => {
    allowed = allowed ? allowed.filter((n) => names.includes(n)) : [...names];
    emit({ type: "notice", level: "info", text: `Tools for the rest of this run: ${allowed.join(", ") || "none"}.` });
  };
  const approve = deps.approve ?? createApprover(config, deps.askUser, emit, mode);
  let stuck = createStuckState();
  // The request before this one (what the server's cache should hold), reset by a compaction.
  let lastRequest: PreviousRequest | undefined;
  let compactedLength = -1;
  // One compaction and retry per run for a prompt the server refused as too long.
  let overflowRetried = false;
  const depth = deps.depth ?? 0;
  if (depth === 0) {
    const started = await promptHooks(conversation, config, memory, emit, signal);
    if (started.blocked !== undefined) {
      emit({ type: "prompt-blocked", reason: started.blocked, source: "hook" });
      return finish("error");
    }
    for (const m of started.context) push(m);
  }
  let stopHookActive = false;
  // The user's new message opens this run: it may be refused whole (never cut) until the model answers.
  const asking = depth === 0 && opensWithUserMessage(initial);
  const answered = () => appended.some((m) => m.role === "assistant");
  /** Too long for the window: back to the user before the model saw any of it, or the run's end. */
  const refuse = (reason: string): LoopResult => {
    if (asking && !answered()) {
      emit({ type: "prompt-blocked", reason, source: "window" });
    } else {
      emit({ type: "error", message: reason, hint: TOO_LONG_HINT });
    }
    return finish("error");
  };

  // What the user typed while the run went reaches the model before its next request.
  const steer = (): boolean => {
    const typed = deps.takeSteers?.() ?? [];
    for (const m of typed) push(m);
    return typed.length > 0;
  };

  for (;;) {
    if (signal.aborted) return finish("interrupted");
    steer();
    if (config.permissionMode !== mode()) config = { ...config, permissionMode: mode() };
    // A mode change during the run is told in a message at this step boundary (protocol/mode-notes.ts;
    // a change between turns went in before the user's message): the system prompt is never rewritten.
    const reminder = modeReminder(conversation, config.permissionMode);
    if (reminder) push(reminder);
    const previous = tools;
    if (latestTools() !== previous) {
      specs = toolSpecs(tools);
      constraints = constraintsFor(specs);
    }
    // The prompt is the system message and the tool schemas as well as the conversation.
    const system = systemMessage(config, specs);
    const sentSpecs = config.toolProtocol === "json" ? [] : specs;
    if (asking && !answered() && !config.windowUnknown) {
      const fixed = overheadTokens({ system, tools: sentSpecs });
      const refusal = newestMessageRefusal(conversation, config.numCtx, fixed);
      if (refusal) return refuse(refusal);
    }
    // Compaction never runs twice without new content in between: a conversation it could not
    // bring under the threshold goes to the model as it is.
    if (conversation.length !== compactedLength) {
      const compacted = await compactIfNeeded(provider, conversation, config, signal, emit, false, {
        system,
        tools: sentSpecs,
      });
      if (compacted) {
        conversation = compacted;
        compactedLength = compacted.length;
        lastRequest = undefined;
      }
    }

    // A resumed session may hold a call whose result never came (the app was killed mid-step).
    const constraint = stepConstraint(config, memory, constraints, constrainNext);
    constrainNext = false;
    const reply = await callModel(provider, [system, ...conversation], specs, config, signal, emit, constraint);
    // The server cut the prompt: from now on the window is what it really holds, and compaction
    // keeps the prompt inside it (Ollama's num_ctx stays: changing it reloads the model).
    if (reply.truncated) {
      if (!memory.truncationTold) emit({ type: "notice", level: "warn", text: reply.truncated.notice });
      memory.truncationTold = true;
      if (config.provider !== "ollama" && (config.windowUnknown || reply.truncated.window < config.numCtx)) {
        config = { ...config, numCtx: reply.truncated.window };
        delete config.windowUnknown;
      }
    }
    const missed = memory.cacheMissTold
      ? undefined
      : cacheMissNotice(lastRequest, reply.cachedTokens, reply.promptTokens, config);
    if (missed) {
      memory.cacheMissTold = true;
      emit({ type: "notice", level: "warn", text: missed });
    }
    lastRequest =
      reply.promptTokens !== undefined && !reply.error
        ? { tokens: reply.promptTokens + (reply.completionTokens ?? 0), subAgentBetween: false }
        : undefined;
    if (reply.promptTokens !== undefined) {
      // Kept on the message, so the status line's figures are rebuilt from a saved session.
      reply.message.usage = { promptTokens: reply.promptTokens, completionTokens: reply.completionTokens ?? 0 };
      emit({
        type: "usage",
        promptTokens: reply.promptTokens,
        completionTokens: reply.completionTokens ?? 0,
        contextWindow: config.numCtx,
        ...(config.windowUnknown ? { windowUnknown: true as const } : {}),
        ...(reply.cachedTokens !== undefined ? { cachedTokens: reply.cachedTokens } : {}),
        toolTokens: toolSpecTokens(sentSpecs),
      });
    }

    if (reply.error) {
      if (reply.error.kind === "no-constraint" && constraint) {
        // The same request again without it, once: the session remembers this server and model.
        (memory.constraintRefused ??= new Set()).add(constraintKey(config));
        constrainNext = constraint.name === CALL_CONSTRAINT;
        emit({ type: "notice", level: "warn", text: constraintRefusedNotice(config, reply.error.message) });
        continue;
      }
      if (reply.error.kind === "no-tools" && config.toolProtocol === "native") {
        config = { ...config, toolProtocol: "json" };
        emit({ type: "tool-protocol", protocol: "json" });
        emit({
          type: "notice",
          level: "warn",
          text: `${config.model} cannot call tools natively; switching this session to the JSON reply protocol.`,
        });
        continue;
      }
      if (!overflowRetried && !signal.aborted) {
        const overhead = { system, tools: sentSpecs };
        const recovered = await recoverFromOverflow(
          reply.error,
          provider,
          conversation,
          config,
          overhead,
          signal,
          emit,
        );
        if (recovered && "refusal" in recovered) return refuse(recovered.refusal);
        if (recovered) {
          overflowRetried = true;
          ({ conversation, config } = recovered);
          compactedLength = conversation.length;
          continue;
        }
      }
      if (reply.message.content || reply.message.thinking) push(reply.message);
      if (signal.aborted || reply.error.kind === "aborted") return finish("interrupted");
      emit({ type: "error", message: reply.error.message, hint: reply.error.hint });
      return finish("error");
    }

    const calls = reply.message.toolCalls ?? [];
    const unknown = calls.filter((c) => !tools.some((t) => t.name === c.name));
    const unusable = reply.unusable
      ? reply.unusable.kind === "empty"
        ? "empty"
        : "malformed"
      : unknown.length > 0
        ? "unknown-tool"
        : undefined;
    // Unreadable native calls count over the session: at the second the session moves to JSON.
    if (reply.unusable?.kind === "malformed" && config.toolProtocol === "native" && noteNativeFailure(memory)) {
      config.toolProtocol = "json";
      emit({ type: "tool-protocol", protocol: "json" });
      emit({
        type: "notice",
        level: "warn",
        text: `${config.model} failed to write a usable tool call twice; switching this session to the JSON reply protocol.`,
      });
    }
    const observed = observeStep(stuck, { toolCalls: calls, unusable }, { maxSteps: config.maxSteps });
    stuck = observed.state;
    const verdict = observed.verdict;

    if (calls.length === 0 && !reply.unusable) {
      push(reply.message);
      // A message typed while this answer streamed: the run goes on with it.
      if (!signal.aborted && steer()) continue;
      // A Stop (SubagentStop) hook may say the work is not done: its reason goes to the model.
      const event = depth === 0 ? "Stop" : "SubagentStop";
      if (!hasHooks(config, event) || signal.aborted) return finish("complete");
      const said = await runHooks(config, event, [], { stop_hook_active: stopHookActive }, emit, signal);
      if (said.stop !== undefined)
        emit({ type: "notice", level: "info", text: `A hook stopped the run: ${said.stop}` });
      if (!said.block || said.stop !== undefined) return finish("complete");
      stopHookActive = true;
      push({ role: "user", content: `${event} hook: ${said.block}` });
      continue;
    }
    if (reply.message.content || reply.message.thinking || calls.length) push(reply.message);
    if (verdict.kind === "stop") {
      // Every call in the history keeps its result, even when we stop before running it.
      for (const c of calls) pushToolResult(push, c, `Not run: ${verdict.message}`);
      emit({ type: "notice", level: "warn", text: `${verdict.message} Type a message to continue the work.` });
      return finish(verdict.reason);
    }

    if (reply.unusable) {
      // One corrective message per unusable reply; stuck.ts's one counter stops the run when
      // they come in a row, so a second bad reply never reaches this point. A native-tools
      // model's unreadable call is asked again under the call schema, in the JSON protocol's words.
      // So is a call written at the end of the thinking, with the answer left empty.
      constrainNext =
        config.toolProtocol === "native" && (reply.unusable.kind === "malformed" || reply.callInThinking !== undefined);
      const words = stepConstraint(config, memory, constraints, constrainNext) ? "json" : config.toolProtocol;
      const detail = reply.callInThinking
        ? `you wrote the call to "${reply.callInThinking}" inside your reasoning and left the reply empty; call it outside your reasoning`
        : reply.unusable.detail;
      push({
        role: "user",
        content: correctiveMessage(
          words,
          tools.map((t) => t.name),
          detail,
        ),
      });
      emit({ type: "notice", level: "warn", text: unusableNotice(reply.unusable.kind) });
      continue;
    }

    // Every call goes through its stages (tool-call.ts): the filter, plan mode, the rules, the hooks, approval.
    const env = {
      tools,
      config,
      mode: mode(),
      stop: (why: string) => void (hookStop ??= why),
      ...(allowed ? { allowed } : {}),
    };
    const results = await runCalls(calls, env, (call) => ({
      ...toolContext(call, config, deps, approve, memory),
      restrictTools,
    }));
    calls.forEach((call, i) => pushToolResult(push, call, results[i]!));
    if (lastRequest && calls.some((c) => c.name === "delegate")) lastRequest.subAgentBetween = true;
    if (hookStop !== undefined) {
      emit({ type: "notice", level: "info", text: `A hook stopped the run: ${hookStop}` });
      return finish("complete");
    }
    if (verdict.kind === "nudge") push({ role: "user", content: verdict.message });
    if (signal.aborted) return finish("interrupted");
  }
}

/**
 * SessionStart (the session's first prompt) and UserPromptSubmit hooks, before the first model call:
 * what they add goes to the model as messages of their own (shown, and saved); a block ends the run.
 */
async function promptHooks(
  conversation: ConversationMessage[],
  config: RunConfig,
  memory: SessionMemory,
  emit: (e: RunEvent) => void,
  signal: AbortSignal,
): Promise<{ blocked?: string; context: ConversationMessage[] }> {
  const last = conversation.at(-1);
  const context: ConversationMessage[] = [];
  if (last?.role !== "user") return { context };
  const wrap = (tag: string, texts: string[]) =>
    texts.length ? [{ role: "user" as const, content: `<${tag}>\n${texts.join("\n")}\n</${tag}>` }] : [];
  // Claude Code runs SessionStart as the session opens; agent0 at its first prompt, so the context
  // it adds goes in with it. A conversation that already has answers was resumed.
  if (hasHooks(config, "SessionStart") && !memory.sessionStarted) {
    const resumed = conversation.some((m) => m.role === "assistant");
    const source = resumed ? "resume" : memory.afterClear ? "clear" : "startup";
    const said = await runHooks(config, "SessionStart", [source], { source }, emit, signal);
    context.push(...wrap("session-start-hook", said.context));
  }
  memory.sessionStarted = true;
  if (hasHooks(config, "UserPromptSubmit")) {
    const prompt = last.typed ?? last.content;
    const said = await runHooks(config, "UserPromptSubmit", [], { prompt }, emit, signal);
    if (said.block !== undefined || said.stop !== undefined) return { blocked: said.block ?? said.stop!, context: [] };
    context.push(...wrap("user-prompt-submit-hook", said.context));
  }
  return { context };
}

/**
 * llama.cpp keeps one prompt cache per slot, and a request may take any free slot: a sub-agent's
 * request would evict the conversation's cache (ggml-org/llama.cpp#13194). With more than one
 * slot, the user's conversation keeps slot 0 and sub-agents share the others, by depth.
 */
function pinSlot(config: RunConfig, depth: number): RunConfig {
  const slots = config.slots ?? 0;
  if (slots < 2) return config.slot === undefined ? config : { ...config, slot: undefined };
  return { ...config, slot: depth === 0 ? 0 : 1 + ((depth - 1) % (slots - 1)) };
}

const TOO_LONG_HINT = "Shorten it, or attach less, or use a model (or a server setting) with a larger context window.";

/** The run's input ends with the user's message (after it only mode notes and hooks' context). */
function opensWithUserMessage(initial: readonly ConversationMessage[]): boolean {
  const at = newestUserIndex(initial);
  return at >= 0 && initial.slice(at + 1).every((m) => m.role === "user");
}

function unusableNotice(kind: "empty" | "malformed"): string {
  return kind === "empty"
    ? "The model's reply was empty; asked it to try again."
    : "The model wrote a tool call as text that could not be read; asked it to retry.";
}

function pushToolResult(
  push: (m: ConversationMessage) => void,
  call: ToolCall,
  outcome: string | Pick<ToolOutcome, "content" | "display" | "images">,
) {
  const { content, display, images } = typeof outcome === "string" ? { content: outcome } : outcome;
  const m: ConversationMessage = { role: "tool", content, toolCallId: call.id, toolName: call.name };
  if (display) m.display = display;
  if (images) m.images = images;
  push(m);
}

function constraintKey(config: RunConfig): string {
  return `${config.provider} ${config.host} ${config.model}`;
}

function constraintRefusedNotice(config: RunConfig, detail: string): string {
  return `The server refused to constrain ${config.model}'s replies to agent0's schema (${detail}); asking again without it for the rest of this session.`;
}

/**
 * The JSON protocol's every step decodes under the reply schema; a native-tools model's corrective
 * step under the call schema. Neither where this server refused a constraint before.
 */
function stepConstraint(
  config: RunConfig,
  memory: SessionMemory,
  constraints: ReturnType<typeof constraintsFor>,
  corrective: boolean,
): ReplyConstraint | undefined {
  if (config.provider === "anthropic" || memory.constraintRefused?.has(constraintKey(config))) return undefined;
  if (config.toolProtocol === "json") return constraints.reply();
  return corrective ? constraints.calls() : undefined;
}

/** Both schemas of one tool set, each built the first time a step needs it. */
function constraintsFor(specs: ToolSpec[]): { reply: () => ReplyConstraint; calls: () => ReplyConstraint } {
  let reply: ReplyConstraint | undefined;
  let calls: ReplyConstraint | undefined;
  return {
    reply: () => (reply ??= protocolConstraint(specs)),
    calls: () => (calls ??= protocolConstraint(specs, true)),
  };
}

/**
 * How a tool runs a sub-agent (ToolContext.runAgent, for delegate): one level deeper, under its
 * parent call's signal, approval, checkpoints and memory.
 */
export function subAgentRunner(
  parent: Pick<
    ToolContext,
    "signal" | "approve" | "beforeWrite" | "memory" | "depth" | "files" | "terminal" | "callId"
  >,
  /** The parent's mode now: a switch to plan mode during the run reaches the sub-agent's calls too. */
  permissionMode?: () => PermissionMode,
): ToolContext["runAgent"] {
  return (conversation, config, run) =>
    runAgent(conversation, config, {
      ...run,
      ...(permissionMode ? { permissionMode } : {}),
      signal: parent.signal,
      // The parent's own approval decides (mode, "always" list, asking the user), so a denial
      // reaches the sub-agent with the user's reason. Its calls' ids are nested under the
      // delegate call's, as their tool lines are (forwardSubAgentEvent).
      approve: (req, verdict) =>
        parent.approve({ ...req, callId: req.callId ? `${parent.callId}/${req.callId}` : parent.callId }, verdict),
      askUser: () => Promise.resolve({ decision: "deny" }),
      beforeWrite: parent.beforeWrite,
      // The files the parent read count as read; the sub-agent's model keeps its own failure count.
      memory: { ...parent.memory, nativeFailures: 0 },
      depth: parent.depth + 1,
      client: { files: parent.files, terminal: parent.terminal },
    });
}

function toolContext(
  call: ToolCall,
  config: RunConfig,
  deps: LoopDeps,
  approve: ToolContext["approve"],
  memory: SessionMemory,
): ToolContext {
  const ctx: Omit<ToolContext, "runAgent"> = {
    cwd: config.cwd,
    signal: deps.signal,
    config,
    memory,
    approve,
    beforeWrite: deps.beforeWrite ?? (async () => {}),
    emit: deps.emit,
    depth: deps.depth ?? 0,
    callId: call.id,
    ...(deps.client?.files ? { files: deps.client.files } : {}),
    ...(deps.client?.terminal ? { terminal: deps.client.terminal } : {}),
  };
  return { ...ctx, runAgent: subAgentRunner(ctx, deps.permissionMode) };
}
