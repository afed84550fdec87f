import type { RunEvent, DoneReason } from "../protocol/agent-event.js";
import type { ConversationMessage, ToolCall } from "../protocol/conversation.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { Provider } from "../providers/types.js";
import type { ClientIo, ToolContext, ToolDef } from "../tools/types.js";
import { toolSpecs, runToolCalls, type ToolOutcome } from "../tools/runner.js";
import { callModel } from "./model-call.js";
import { createStuckState, observeStep } from "./stuck.js";
import { correctiveMessage, jsonProtocolPrompt } from "./replies/json-protocol.js";
import { createApprover, guardPlanMode, PLAN_MODE_PROMPT, type AskUser } from "./approval.js";
import { ensureModelInfo, failedNativeCalls, noteNativeFailure, type Prefetched } from "./model-info.js";
import { createSessionMemory, type SessionMemory } from "../tools/session-memory.js";
import { compactIfNeeded } from "./compaction/run.js";
import { pairToolResults } from "../protocol/history.js";

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
    emit({ type: "error", message: info.message, hint: info.hint });
    return finish(signal.aborted ? "interrupted" : "error");
  }
  // The caller's config is never changed; what this run learns lives in its own copy.
  let config = info.config;

  if (config.toolProtocol === "native" && failedNativeCalls(memory)) config.toolProtocol = "json";

  // A skill's allowed-tools (typed as /skill, or loaded by the model) limits every later step.
  let allowed = config.toolFilter;
  let applied: string[] | undefined;
  const mode = deps.permissionMode ?? (() => runConfig.permissionMode);
  // Plan mode wraps each tool set once; a changed MCP tool list is wrapped again.
  let source = typeof deps.tools === "function" ? deps.tools() : deps.tools;
  let base = guardPlanMode(source, mode);
  const latestTools = () => {
    const now = typeof deps.tools === "function" ? deps.tools() : deps.tools;
    if (now !== source) {
      source = now;
      base = guardPlanMode(now, mode);
    }
    return base;
  };
  let tools = base;
  let specs = toolSpecs(tools);
  const restrictTools = (names: string[]) => {
    allowed = allowed ? allowed.filter((n) => names.includes(n)) : [...names];
    emit({ type: "notice", level: "info", text: `Tools for the rest of this run: ${allowed.join(", ") || "none"}.` });
  };
  const approve = deps.approve ?? createApprover(config, deps.askUser, emit, mode);
  let stuck = createStuckState();

  for (;;) {
    if (signal.aborted) return finish("interrupted");
    // The system prompt follows a mode changed during the run (plan mode has a section of its own).
    if (config.permissionMode !== mode()) config = { ...config, permissionMode: mode() };
    const previous = base;
    const latest = latestTools();
    if (allowed !== applied || latest !== previous) {
      const names = allowed;
      tools = names ? latest.filter((t) => names.includes(t.name)) : latest;
      specs = toolSpecs(tools);
      applied = allowed;
    }
    // The prompt is the system message and the tool schemas as well as the conversation.
    const system = systemMessage(config, specs);
    const compacted = await compactIfNeeded(provider, conversation, config, signal, emit, false, {
      system,
      tools: config.toolProtocol === "json" ? [] : specs,
    });
    if (compacted) conversation = compacted;

    // A resumed session may hold a call whose result never came (the app was killed mid-step).
    const reply = await callModel(provider, [system, ...pairToolResults(conversation)], specs, config, signal, emit);
    if (reply.promptTokens !== undefined) {
      // Kept on the message, so the status line's figures are rebuilt from a saved session.
      reply.message.usage = { promptTokens: reply.promptTokens, completionTokens: reply.completionTokens ?? 0 };
      emit({
        type: "usage",
        promptTokens: reply.promptTokens,
        completionTokens: reply.completionTokens ?? 0,
        contextWindow: config.numCtx,
      });
    }

    if (reply.error) {
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
      return finish("complete");
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
      // they come in a row, so a second bad reply never reaches this point.
      push({
        role: "user",
        content: correctiveMessage(
          config.toolProtocol,
          tools.map((t) => t.name),
          reply.unusable.detail,
        ),
      });
      emit({ type: "notice", level: "warn", text: unusableNotice(reply.unusable.kind) });
      continue;
    }

    const results = await runToolCalls(calls, tools, (call) => ({
      ...toolContext(call, config, deps, approve, memory),
      restrictTools,
    }));
    calls.forEach((call, i) => pushToolResult(push, call, results[i]!));
    if (verdict.kind === "nudge") push({ role: "user", content: verdict.message });
    if (signal.aborted) return finish("interrupted");
  }
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

function systemMessage(config: RunConfig, specs: ReturnType<typeof toolSpecs>): ConversationMessage {
  let text = config.systemPrompt;
  if (config.permissionMode === "plan") text = `${text}\n\n${PLAN_MODE_PROMPT}`;
  if (config.toolProtocol === "json") text = `${text}\n\n${jsonProtocolPrompt(specs)}`;
  return { role: "system", content: text };
}

/**
 * How a tool runs a sub-agent (ToolContext.runAgent, for delegate): one level deeper, under its
 * parent call's signal, approval, checkpoints and memory.
 */
export function subAgentRunner(
  parent: Pick<ToolContext, "signal" | "approve" | "beforeWrite" | "memory" | "depth" | "files" | "terminal">,
): ToolContext["runAgent"] {
  return (conversation, config, run) =>
    runAgent(conversation, config, {
      ...run,
      signal: parent.signal,
      // The parent's own approval decides (mode, "always" list, asking the user), so a denial
      // reaches the sub-agent with the user's reason.
      approve: parent.approve,
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
  return { ...ctx, runAgent: subAgentRunner(ctx) };
}
