// The stages of one step of a run (loop.ts runs them in order): prepare the request, ask the
// model, then one of — recover from the request's error, take the answer, correct an unusable
// reply, run the calls. Each reads and changes the run's state (run-state.ts) and says how the
// run goes on: with the next step, or done.
import type { DoneReason } from "../protocol/agent-event.js";
import type { ConversationMessage, ToolCall } from "../protocol/conversation.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { SessionMemory } from "../tools/session-memory.js";
import { runCalls } from "./tool-call.js";
import { callModel, type ModelReply } from "./model-call.js";
import { CALL_CONSTRAINT, type ReplyConstraint } from "./replies/protocol-schema.js";
import { observeStep, type StuckVerdict } from "./stuck.js";
import { waitsOnJobs } from "../tools/shell/job-tools.js";
import { constraintRefused, noteConstraintRefused, serverTakesConstraint } from "./constraint-capability.js";
import { correctiveMessage } from "./replies/json-protocol.js";
import { systemMessage } from "./request.js";
import { modeReminder } from "../protocol/mode-notes.js";
import { noteReply, refuseTooLong, sentSpecs, tooLongToSend } from "./run-window.js";
import { noteNativeFailure } from "./model-info.js";
import { compactIfNeeded } from "./compaction/run.js";
import { recoverFromOverflow } from "./overflow-retry.js";
import { hasHooks, runHooks } from "./hooks/hooks.js";
import { push, pushToolResult, refreshTools, restrictTools, type Constraints, type RunState } from "./run-state.js";
import type { ToolContext } from "../tools/types.js";

/** How the run goes on after a stage: the next step, or done for this reason. */
export type Flow = { next: "step" } | { next: "done"; reason: DoneReason };
export const NEXT_STEP: Flow = { next: "step" };
export const done = (reason: DoneReason): Flow => ({ next: "done", reason });

/** What the user typed while the run went reaches the model before its next request. */
export function steer(run: RunState): boolean {
  const typed = run.deps.takeSteers?.() ?? [];
  for (const m of typed) push(run, m);
  return typed.length > 0;
}

/**
 * Before a request: steers, the mode now (a change during the run is told in a message at this
 * step boundary, protocol/mode-notes.ts; one between turns went in before the user's message: the
 * system prompt is never rewritten), a changed tool list, the newest message's fit, and compaction.
 * Returns the system message of the request, or why the user's message cannot be sent.
 */
export async function prepareStep(run: RunState): Promise<{ system: ConversationMessage } | { refusal: string }> {
  steer(run);
  const mode = run.mode();
  if (run.config.permissionMode !== mode) run.config = { ...run.config, permissionMode: mode };
  const reminder = modeReminder(run.conversation, run.config.permissionMode);
  if (reminder) push(run, reminder);
  refreshTools(run);
  // The prompt is the system message and the tool schemas as well as the conversation.
  const system = systemMessage(run.config, run.specs);
  const refusal = tooLongToSend(run, system);
  if (refusal) return { refusal };
  // A conversation compaction could not bring under the threshold goes to the model as it is.
  if (run.conversation.length !== run.compactedLength) {
    const { provider, signal, emit } = run.deps;
    const compacted = await compactIfNeeded(provider, run.conversation, run.config, signal, emit, {
      trigger: "auto",
      overhead: { system, tools: sentSpecs(run) },
    });
    if (compacted) {
      run.conversation = compacted;
      run.compactedLength = compacted.length;
      run.lastRequest = undefined;
    }
  }
  return { system };
}

/** One model call, and what its reply tells about the server (run-window.ts). */
export async function askModel(
  run: RunState,
  system: ConversationMessage,
  constraint: ReplyConstraint | undefined,
): Promise<ModelReply> {
  const { provider, signal, emit } = run.deps;
  const reply = await callModel(
    provider,
    [system, ...run.conversation],
    run.specs,
    run.config,
    signal,
    emit,
    constraint,
  );
  noteReply(run, reply);
  return reply;
}

/**
 * A request that failed: asked again without the constraint the server refused, in the JSON
 * protocol for a model that cannot call tools natively, or compacted once for a prompt refused as
 * too long; otherwise the run ends with the error.
 */
export async function afterError(
  run: RunState,
  reply: ModelReply & { error: NonNullable<ModelReply["error"]> },
  constraint: ReplyConstraint | undefined,
  system: ConversationMessage,
): Promise<Flow> {
  const { emit, signal, provider } = run.deps;
  const error = reply.error;
  if (error.kind === "no-constraint" && constraint) {
    // The same request again without it, once: the session remembers this server and model.
    noteConstraintRefused(run.config, run.memory);
    run.constrainNext = constraint.name === CALL_CONSTRAINT;
    emit({ type: "notice", level: "warn", text: constraintRefusedNotice(run.config, error.message) });
    return NEXT_STEP;
  }
  if (error.kind === "no-tools" && run.config.toolProtocol === "native") {
    run.config = { ...run.config, toolProtocol: "json" };
    emit({ type: "tool-protocol", protocol: "json" });
    emit({
      type: "notice",
      level: "warn",
      text: `${run.config.model} cannot call tools natively; switching this session to the JSON reply protocol.`,
    });
    return NEXT_STEP;
  }
  if (!run.overflowRetried && !signal.aborted) {
    const overhead = { system, tools: sentSpecs(run) };
    const recovered = await recoverFromOverflow(error, provider, run.conversation, run.config, overhead, signal, emit);
    if (recovered && "refusal" in recovered) {
      refuseTooLong(run, recovered.refusal);
      return done("error");
    }
    if (recovered) {
      run.overflowRetried = true;
      run.conversation = recovered.conversation;
      run.config = recovered.config;
      run.compactedLength = run.conversation.length;
      return NEXT_STEP;
    }
  }
  if (reply.message.content || reply.message.thinking) push(run, reply.message);
  if (signal.aborted || error.kind === "aborted") return done("interrupted");
  emit({ type: "error", message: error.message, hint: error.hint });
  return done("error");
}

/**
 * What a usable reply counts for: unreadable native calls over the session (at the second the
 * session moves to JSON), and the stuck rules over the run.
 */
export function observeReply(run: RunState, reply: ModelReply): StuckVerdict {
  const calls = reply.message.toolCalls ?? [];
  const unknown = calls.some((c) => !run.tools.some((t) => t.name === c.name));
  const unusable = reply.unusable
    ? reply.unusable.kind === "empty"
      ? "empty"
      : "malformed"
    : unknown
      ? "unknown-tool"
      : undefined;
  if (reply.unusable?.kind === "malformed" && run.config.toolProtocol === "native" && noteNativeFailure(run.memory)) {
    run.config.toolProtocol = "json";
    run.deps.emit({ type: "tool-protocol", protocol: "json" });
    run.deps.emit({
      type: "notice",
      level: "warn",
      text: `${run.config.model} failed to write a usable tool call twice; switching this session to the JSON reply protocol.`,
    });
  }
  const waiting = waitsOnJobs(calls, run.memory.jobs);
  const observed = observeStep(run.stuck, { toolCalls: calls, unusable, waiting }, { maxSteps: run.config.maxSteps });
  run.stuck = observed.state;
  return observed.verdict;
}

/**
 * An answer without calls: the run is complete, unless a message was typed meanwhile or a Stop
 * (SubagentStop) hook says the work is not done (its reason goes to the model).
 */
export async function afterAnswer(run: RunState, reply: ModelReply): Promise<Flow> {
  const { signal, emit } = run.deps;
  push(run, reply.message);
  if (!signal.aborted && steer(run)) return NEXT_STEP;
  const event = run.depth === 0 ? "Stop" : "SubagentStop";
  if (!hasHooks(run.config, event) || signal.aborted) return done("complete");
  const said = await runHooks(run.config, event, [], { stop_hook_active: run.stopHookActive }, emit, signal);
  if (said.stop !== undefined) emit({ type: "notice", level: "info", text: `A hook stopped the run: ${said.stop}` });
  if (!said.block || said.stop !== undefined) return done("complete");
  run.stopHookActive = true;
  push(run, { role: "user", content: `${event} hook: ${said.block}` });
  return NEXT_STEP;
}

/**
 * One corrective message per unusable reply; stuck.ts's one counter stops the run when they come
 * in a row. A native-tools model's unreadable call is asked again under the call schema, in the
 * JSON protocol's words; so is a call written at the end of the thinking, with the answer left empty.
 */
export async function correctUnusable(
  run: RunState,
  reply: ModelReply & { unusable: NonNullable<ModelReply["unusable"]> },
): Promise<Flow> {
  const config = run.config;
  const { provider, signal, emit } = run.deps;
  run.constrainNext =
    config.toolProtocol === "native" &&
    (reply.unusable.kind === "malformed" || reply.callInThinking !== undefined) &&
    (await serverTakesConstraint(provider, config, run.memory, signal, emit));
  const words = stepConstraint(config, run.memory, run.constraints, run.constrainNext) ? "json" : config.toolProtocol;
  const detail = reply.callInThinking
    ? `you wrote the call to "${reply.callInThinking}" inside your reasoning and left the reply empty; call it outside your reasoning`
    : reply.unusable.detail;
  push(run, {
    role: "user",
    content: correctiveMessage(
      words,
      run.tools.map((t) => t.name),
      detail,
    ),
  });
  run.deps.emit({ type: "notice", level: "warn", text: unusableNotice(reply.unusable.kind) });
  return NEXT_STEP;
}

/** Every call goes through its stages (tool-call.ts): the filter, plan mode, the rules, the hooks, approval. */
export async function runStepCalls(
  run: RunState,
  calls: ToolCall[],
  verdict: StuckVerdict,
  contextOf: (call: ToolCall) => ToolContext,
): Promise<Flow> {
  const env = {
    tools: run.tools,
    config: run.config,
    mode: run.mode(),
    stop: (why: string) => void (run.hookStop ??= why),
    ...(run.allowed ? { allowed: run.allowed } : {}),
  };
  const results = await runCalls(calls, env, (call) => ({
    ...contextOf(call),
    restrictTools: (names: string[]) => restrictTools(run, names),
  }));
  calls.forEach((call, i) => pushToolResult(run, call, results[i]!));
  if (run.lastRequest && calls.some((c) => c.name === "delegate")) run.lastRequest.subAgentBetween = true;
  if (run.hookStop !== undefined) {
    run.deps.emit({ type: "notice", level: "info", text: `A hook stopped the run: ${run.hookStop}` });
    return done("complete");
  }
  if (verdict.kind === "nudge") push(run, { role: "user", content: verdict.message });
  return run.deps.signal.aborted ? done("interrupted") : NEXT_STEP;
}

function unusableNotice(kind: "empty" | "malformed"): string {
  return kind === "empty"
    ? "The model's reply was empty; asked it to try again."
    : "The model wrote a tool call as text that could not be read; asked it to retry.";
}

function constraintRefusedNotice(config: RunConfig, detail: string): string {
  return `The server refused to constrain ${config.model}'s replies to agent0's schema (${detail}); asking again without it for the rest of this session.`;
}

/**
 * The JSON protocol's every step decodes under the reply schema; a native-tools model's corrective
 * step under the call schema. Neither where this server refused a constraint before.
 */
export function stepConstraint(
  config: RunConfig,
  memory: SessionMemory,
  constraints: Constraints,
  corrective: boolean,
): ReplyConstraint | undefined {
  if (config.provider === "anthropic" || constraintRefused(config, memory)) return undefined;
  if (config.toolProtocol === "json") return constraints.reply();
  return corrective ? constraints.calls() : undefined;
}
