// runAgent: the run as its stages, in order, over one explicit state (run-state.ts): open the run
// (the model's facts, the images check), the prompt hooks, then steps (run-steps.ts) until the
// model answers, the user interrupts, a stuck rule fires or the step cap is reached.
import type { RunEvent } from "../protocol/agent-event.js";
import type { ConversationMessage, ToolCall } from "../protocol/conversation.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { ToolContext } from "../tools/types.js";
import type { SessionMemory } from "../tools/session-memory.js";
import { hasHooks, runHooks } from "./hooks/hooks.js";
import { serverTakesConstraint } from "./constraint-capability.js";
import { refuseTooLong } from "./run-window.js";
import { finish, openRun, push, pushToolResult, type LoopDeps, type LoopResult, type RunState } from "./run-state.js";
import {
  afterAnswer,
  afterError,
  askModel,
  correctUnusable,
  done,
  observeReply,
  prepareStep,
  runStepCalls,
  stepConstraint,
  type Flow,
} from "./run-steps.js";

export type { LoopDeps, LoopResult } from "./run-state.js";

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
  const opened = await openRun(initial, runConfig, deps);
  if (!("deps" in opened)) return opened;
  const run = opened;
  if (run.depth === 0) {
    const started = await promptHooks(run.conversation, run.config, run.memory, deps.emit, deps.signal);
    if (started.blocked !== undefined) {
      deps.emit({ type: "prompt-blocked", reason: started.blocked, source: "hook" });
      return finish(run, "error");
    }
    for (const m of started.context) push(run, m);
  }
  for (;;) {
    if (deps.signal.aborted) return finish(run, "interrupted");
    const flow = await step(run);
    if (flow.next === "done") return finish(run, flow.reason);
  }
}

/** One step: the request, the model's reply, and what follows from it. */
async function step(run: RunState): Promise<Flow> {
  const prepared = await prepareStep(run);
  if ("refusal" in prepared) {
    refuseTooLong(run, prepared.refusal);
    return done("error");
  }
  const { system } = prepared;
  let constraint = stepConstraint(run.config, run.memory, run.constraints, run.constrainNext);
  const { provider, signal, emit } = run.deps;
  if (constraint && !(await serverTakesConstraint(provider, run.config, run.memory, signal, emit)))
    constraint = undefined;
  run.constrainNext = false;
  const reply = await askModel(run, system, constraint);
  if (reply.error) return afterError(run, { ...reply, error: reply.error }, constraint, system);
  const calls = reply.message.toolCalls ?? [];
  const verdict = observeReply(run, reply);
  if (calls.length === 0 && !reply.unusable) return afterAnswer(run, reply);
  if (reply.message.content || reply.message.thinking || calls.length) push(run, reply.message);
  if (verdict.kind === "stop") {
    // Every call in the history keeps its result, even when we stop before running it.
    for (const c of calls) pushToolResult(run, c, `Not run: ${verdict.message}`);
    run.deps.emit({ type: "notice", level: "warn", text: `${verdict.message} Type a message to continue the work.` });
    return done(verdict.reason);
  }
  if (reply.unusable) return correctUnusable(run, { ...reply, unusable: reply.unusable });
  return runStepCalls(run, calls, verdict, (call) => toolContext(call, run.config, run.deps, run.approve, run.memory));
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
