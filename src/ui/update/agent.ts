import { openEngineOffer } from "./engine-offer.js";
import type { AgentEvent } from "../../protocol/agent-event.js";
import type { ConversationMessage } from "../../protocol/conversation.js";
import { assertNever } from "../../protocol/assert-never.js";
import { tokensOf } from "../../protocol/usage.js";
import type { Entry, Model } from "../model.js";
import type { Cmd } from "../msg.js";
import { putBack } from "./put-back.js";
import { addEntry, streamingEntry, unansweredCalls } from "./transcript.js";
import { startRun } from "./run.js";
import { keepSessionFacts } from "../../protocol/session-facts.js";
import { applyTodoCall } from "./todos.js";
import { TODO_TOOL } from "./todo-items.js";
import { offerPlanApproval } from "./modes.js";
import { attend } from "./attention.js";
import { armIdle } from "./idle.js";
import { applyMcpState } from "./mcp.js";
import { applyJobs } from "./jobs.js";

/** Events that may come from no run: the probe's, the MCP servers', and the worker handle's own. */
const RUNLESS: ReadonlySet<AgentEvent["type"]> = new Set([
  "notice",
  "error",
  "model-info",
  "model-load",
  "mcp-state",
  "jobs",
  "mcp-expanded",
  "mcp-expand-failed",
  "log",
]);

/** Folds one agent event into the model (inside immer's produce). */
export function applyAgentEvent(model: Model, event: AgentEvent, cmds: Cmd[]): void {
  // A late event of a run that was stopped (or replaced) must not touch the current one; what only
  // a run can say (text, tools, messages, done) is dropped when it names no run at all.
  const current = event.runId !== null && event.runId === model.run?.id;
  if (!current && (event.runId !== null || !RUNLESS.has(event.type))) return;
  // The recorder saves what is applied here (streamed text, messages, compaction, the model).
  cmds.push({ type: "session-record", event });
  // The facts later runs carry (model, window, protocol, "always"): the rule every driver keeps.
  keepSessionFacts(model.config, event);
  switch (event.type) {
    case "text":
    case "thinking": {
      let entry = streamingEntry(model);
      if (!entry) {
        addEntry(model, { kind: "assistant", text: "", thinking: "", streaming: true, interrupted: false });
        entry = model.entries.at(-1) as Extract<Entry, { kind: "assistant" }>;
        if (model.run) model.run.streamingId = entry.id;
      }
      if (event.type === "text") entry.text += event.delta;
      else entry.thinking += event.delta;
      model.warm = true;
      if (model.run) model.run.phase = event.type === "text" ? "answering" : "thinking";
      break;
    }
    case "status":
      if (model.run) {
        model.run.phase = event.phase;
        model.run.writing = event.writing;
      }
      break;
    case "tool-start":
      closeStreaming(model);
      addEntry(model, {
        kind: "tool",
        callId: event.id,
        name: event.name,
        label: event.label,
        state: "running",
        summary: "",
        startedAt: model.now,
        depth: depthOf(model, event.parentId),
      });
      if (model.run) model.run.phase = "tool";
      model.stats.toolCalls++;
      if (event.name === TODO_TOOL && !event.parentId) applyTodoCall(model, event.args);
      break;
    case "tool-end": {
      const entry = findTool(model, event.id);
      if (entry) {
        entry.state = event.display.ok ? "ok" : "error";
        entry.summary = event.display.summary;
        if (event.display.output !== undefined) entry.output = event.display.output;
        if (event.display.outputLang) entry.outputLang = event.display.outputLang;
      }
      const { diff, path } = event.display;
      if (diff)
        addEntry(model, { kind: "diff", path: path ?? "", unified: diff, depth: depthOf(model, event.parentId) });
      break;
    }
    case "permission-request":
      model.dialog = {
        kind: "permission",
        id: event.id,
        tool: event.tool,
        preview: event.preview,
        allowKey: event.allowKey,
        ...(event.why ? { why: event.why } : {}),
        ...(event.alwaysOptions ? { alwaysOptions: event.alwaysOptions } : {}),
        alwaysChoice: null,
        scroll: 0,
        seenEnd: false,
        reason: null,
        openedAt: model.now,
      };
      attend(model, `agent0: allow ${event.tool}?`, cmds);
      break;
    case "message":
      applyMessage(model, event.message);
      break;
    case "usage":
      model.warm = true;
      model.usage.promptTokens = event.promptTokens;
      model.usage.completionTokens = event.completionTokens;
      model.stats.tokensIn += event.promptTokens;
      model.stats.tokensOut += event.completionTokens;
      notePrompt(model.prompt, event);
      countUsage(modelStats(model), event.promptTokens, event.completionTokens);
      break;
    case "notice":
      // The model probe and the first run can both find the same thing (a prompt sent with the
      // launch starts its run before the probe's answer): a warning shows once in a turn.
      if (!shownThisTurn(model, event.text)) addEntry(model, { kind: "notice", level: event.level, text: event.text });
      break;
    case "error":
      closeStreaming(model);
      addEntry(model, { kind: "error", message: event.message, hint: event.hint });
      if (event.offer) openEngineOffer(model, event.offer);
      break;
    case "compacted":
      model.conversation = event.conversation;
      // The next request's prompt is about the compacted conversation's size.
      model.usage.promptTokens = event.after;
      model.usage.completionTokens = 0;
      break;
    case "model-info":
      model.contextLength = event.contextLength;
      break;
    case "allowed":
    case "tool-protocol":
      // Facts only: keepSessionFacts took them.
      break;
    case "log":
      // For the run log (every applied event is logged); nothing changes on screen.
      break;
    case "model-load":
      model.loadingModel = event.state === "loading";
      if (event.state === "ready") model.warm = true;
      break;
    case "tool-progress": {
      const entry = findTool(model, event.id);
      if (entry) {
        const amount = event.total !== undefined ? `${event.progress}/${event.total}` : String(event.progress);
        entry.progress = event.message ? `${amount} ${event.message}` : amount;
      }
      break;
    }
    case "mcp-state":
      applyMcpState(model, event.servers);
      break;
    case "jobs":
      applyJobs(model, event.jobs);
      break;
    case "mcp-expanded":
      if (model.run) {
        addEntry(model, { kind: "notice", level: "warn", text: `Not sent (a run is going): ${event.typed}` });
        break;
      }
      startRun(
        model,
        {
          content: event.content,
          typed: event.typed,
          note: "with MCP content",
          ...(event.images ? { images: event.images } : {}),
        },
        cmds,
      );
      break;
    case "mcp-expand-failed":
      addEntry(model, { kind: "error", message: `Could not send "${event.typed}": ${event.error}` });
      break;
    case "done":
      finishRun(model, event.reason === "interrupted", cmds);
      if (!model.run) {
        model.runFailed = event.reason === "error";
        offerPlanApproval(model, event.reason === "complete");
        if (event.reason !== "interrupted") {
          attend(model, "agent0: the answer is ready", cmds);
          armIdle(model, cmds);
        }
      }
      break;
    case "denied":
      // Only headless runs deny without asking; the TUI always asks.
      break;
    case "hook":
      if (model.run) {
        if (event.state === "running") model.run.hook = { event: event.event, command: event.command };
        else delete model.run.hook;
      }
      break;
    case "prompt-blocked":
      blockPrompt(model, event.reason, event.source);
      break;
    case "steered": {
      // It went in now: shown here, as the user's message; its `message` event follows.
      const at = model.steering.findIndex((s) => s.id === event.id);
      const text = at >= 0 ? model.steering.splice(at, 1)[0]!.text : undefined;
      closeStreaming(model);
      if (text !== undefined) addEntry(model, { kind: "user", text, note: "sent during the run" });
      if (model.run) model.run.steeredPending = (model.run.steeredPending ?? 0) + 1;
      break;
    }
    default:
      assertNever(event);
  }
}

/** The request's tool cost and what the server's cache held of its prompt. */
function notePrompt(figures: Model["prompt"], event: Extract<AgentEvent, { type: "usage" }>): void {
  if (event.toolTokens !== undefined) figures.toolTokens = event.toolTokens;
  if (event.cachedTokens === undefined) return;
  figures.cacheRequests++;
  figures.cachedTokens += event.cachedTokens;
  figures.promptTokens += event.promptTokens;
  figures.last = { cached: event.cachedTokens, prompt: event.promptTokens };
}

/**
 * A UserPromptSubmit hook said no, or the prompt cannot fit the window: it leaves the conversation
 * (the model never saw it, and the next prompt must not carry it) and the transcript, and comes
 * back into the input, with the reason.
 */
function blockPrompt(model: Model, reason: string, source: "hook" | "window"): void {
  const at = model.conversation.findLastIndex((m) => m.role === "user");
  const prompt = at >= 0 ? model.conversation[at]! : undefined;
  if (prompt) model.conversation.splice(at, 1);
  const text = prompt?.typed ?? prompt?.content ?? "";
  putBack(model, [text]);
  // Not sent, so not shown as sent: the words are in the input box, once.
  const shown = model.entries.findLastIndex((e) => e.kind === "user");
  if (shown >= 0) model.entries.splice(shown, 1);
  addEntry(model, {
    kind: "error",
    message: source === "hook" ? `A UserPromptSubmit hook blocked this prompt: ${reason}` : reason,
    hint:
      source === "hook"
        ? "It was not sent; it is back in the input box."
        : "It was not sent, and nothing of it was cut: it is back in the input box. Shorten it or attach less, or use a model with a larger context window.",
  });
}

function applyMessage(model: Model, message: ConversationMessage): void {
  model.conversation.push(message);
  // Counted from saved messages only, so a resumed session adds up to the same total.
  model.usage.totalTokens += tokensOf(message);
  if (message.role === "assistant") {
    const entry = streamingEntry(model);
    if (entry) {
      // The final message is authoritative: recovered tool-call markup is gone from it.
      entry.text = message.content;
      entry.streaming = false;
      entry.interrupted = !!message.interrupted;
    } else if (message.content.trim()) {
      addEntry(model, {
        kind: "assistant",
        text: message.content,
        thinking: message.thinking ?? "",
        streaming: false,
        interrupted: !!message.interrupted,
      });
    }
  } else if (message.role === "user" && model.run?.steeredPending) {
    model.run.steeredPending--;
  } else if (message.role === "user") {
    // The loop's own messages to the model (a format reminder, a nudge to answer): shown briefly.
    const first = message.content.split("\n").find((l) => l.trim()) ?? "";
    addEntry(model, {
      kind: "notice",
      level: "info",
      text: `agent0 → model: ${first.length > 140 ? first.slice(0, 139) + "…" : first}`,
    });
  }
}

/**
 * Quitting while a run goes: the worker is not waited for, so what arrived so far is saved here,
 * as the worker would have saved it on an interrupt.
 */
export function keepPartialAnswer(model: Model, cmds: Cmd[]): void {
  if (!model.run) return;
  const entry = streamingEntry(model);
  if (entry && (entry.text || entry.thinking)) {
    const message: ConversationMessage = { role: "assistant", content: entry.text, interrupted: true };
    if (entry.thinking) message.thinking = entry.thinking;
    model.conversation.push(message);
    cmds.push({ type: "session-append", message });
  }
  model.queued = [];
  model.steering = [];
  finishRun(model, true, cmds);
}

function countUsage(per: Model["stats"]["byModel"][string], tokensIn: number, tokensOut: number): void {
  per.requests++;
  per.tokensIn += tokensIn;
  per.tokensOut += tokensOut;
}

/** The /cost figures of the model in use. */
function modelStats(model: Model): Model["stats"]["byModel"][string] {
  const name = model.config.model || "(no model)";
  return (model.stats.byModel[name] ??= { requests: 0, tokensIn: 0, tokensOut: 0, ms: 0 });
}

function finishRun(model: Model, interrupted: boolean, cmds: Cmd[]): void {
  if (model.run) modelStats(model).ms += Math.max(0, model.now - model.run.startedAt);
  const entry = streamingEntry(model);
  if (entry) {
    entry.streaming = false;
    entry.interrupted = entry.interrupted || interrupted;
  }
  for (const e of model.entries) {
    if (e.kind === "tool" && e.state === "running") {
      e.state = "error";
      e.summary = interrupted ? "interrupted" : "stopped";
    }
  }
  // Never leave a tool call without its result: providers reject such a history.
  for (const call of unansweredCalls(model.conversation)) {
    const message: ConversationMessage = {
      role: "tool",
      content: "Not run: the run was stopped before this tool finished.",
      toolCallId: call.id,
      toolName: call.name,
    };
    model.conversation.push(message);
    cmds.push({ type: "session-append", message });
  }
  if (model.dialog?.kind === "permission") model.dialog = null;
  model.run = null;
  // Messages sent to steer a run that ended before its next step: they are sent next, first.
  if (!interrupted) model.queued.unshift(...model.steering.splice(0).map((s) => s.text));
  else model.steering = [];
}

/** A notice with this text is among the entries since the last prompt. */
function shownThisTurn(model: Model, text: string): boolean {
  for (let i = model.entries.length - 1; i >= 0; i--) {
    const e = model.entries[i]!;
    if (e.kind === "notice" && e.text === text) return true;
    if (e.kind === "user") return false;
  }
  return false;
}

function closeStreaming(model: Model): void {
  const entry = streamingEntry(model);
  if (entry) entry.streaming = false;
}

function findTool(model: Model, callId: string): Extract<Entry, { kind: "tool" }> | undefined {
  for (let i = model.entries.length - 1; i >= 0; i--) {
    const e = model.entries[i]!;
    if (e.kind === "tool" && e.callId === callId) return e;
  }
  return undefined;
}

function depthOf(model: Model, parentId: string | undefined): number {
  if (!parentId) return 0;
  const parent = findTool(model, parentId);
  return parent ? parent.depth + 1 : 1;
}
