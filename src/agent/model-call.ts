import type { RunEvent } from "../protocol/agent-event.js";
import type { ConversationMessage, ToolCall } from "../protocol/conversation.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { Provider, ProviderError } from "../providers/types.js";
import type { ToolSpec } from "../protocol/tool-spec.js";
import { recoverToolCalls } from "./replies/text-tool-calls.js";
import { callEndingThinking } from "./replies/thinking-call.js";
import { parseJsonProtocolReply, RESPONSE_TOOL } from "./replies/json-protocol.js";
import { ToolCallStreamGuard } from "./replies/tool-call-stream.js";
import { recoversTextCalls } from "../protocol/tool-protocol.js";
import { wireMessages, wireToolSpecs } from "./request.js";
import { newCallId } from "../providers/tool-args.js";
import { estimateTokens, truncationSuspected } from "./compaction/index.js";
import { toolSpecTokens } from "./compaction/run.js";
import type { ReplyConstraint } from "./replies/protocol-schema.js";

export interface ModelReply {
  message: ConversationMessage;
  /** Set when the request failed or was cut off; `message` then holds what arrived. */
  error?: ProviderError;
  /** Why the reply cannot be used, if it can't (counts toward the stuck rule). */
  unusable?: { kind: "empty" | "malformed"; detail: string };
  /** An empty reply whose thinking ends with a call to this tool: asked again to call it outside. */
  callInThinking?: string;
  promptTokens?: number;
  completionTokens?: number;
  /** The part of the prompt the server read from its cache, when it says. */
  cachedTokens?: number;
  /** The server cut the prompt: about `window` tokens is what it really holds; `notice` says so. */
  truncated?: { window: number; notice: string };
}

/**
 * One model request: streams deltas to the UI as events and assembles the assistant message.
 * Tool calls that a model wrote into its text are recovered here, so the rest of the loop
 * only ever sees structured calls.
 */
export async function callModel(
  provider: Provider,
  conversation: ConversationMessage[],
  tools: ToolSpec[],
  config: RunConfig,
  signal: AbortSignal,
  emit: (e: RunEvent) => void,
  /** The reply is decoded under this schema (replies/protocol-schema.ts): it is read as the JSON protocol. */
  constraint?: ReplyConstraint,
): Promise<ModelReply> {
  const json = config.toolProtocol === "json";
  // Images stay in the history across a model switch; a model that cannot read them reads their description.
  const messages = wireMessages(conversation, config);
  // Text that may be a call written into the reply waits until recovery has seen all of it.
  const guard = new ToolCallStreamGuard(tools.map((t) => t.name));
  const release = () => {
    const held = guard.release();
    if (held && !json) emit({ type: "text", delta: held });
  };
  emit({ type: "status", phase: "loading" });
  const streamed = await readStream(provider, messages, tools, config, signal, emit, guard, constraint);
  const { content, thinking, signature, toolCalls, error, promptTokens, completionTokens, cachedTokens } = streamed;

  const sentTools = wireToolSpecs(config, tools);
  const truncated = promptTokens ? truncation(config, messages, sentTools, promptTokens) : undefined;
  const toolNames = tools.map((t) => t.name);
  if (error) {
    release();
    const message: ConversationMessage = { role: "assistant", content, interrupted: true };
    if (thinking) message.thinking = thinking;
    return { message, error };
  }
  const counts = {
    ...(cachedTokens !== undefined ? { cachedTokens } : {}),
    ...(truncated ? { truncated } : {}),
  };
  // A native model's constrained step is read as the protocol; a server that ignored the constraint
  // (ggml-org/llama.cpp#24097 answers 200 unconstrained) gets its reply read as any other.
  const asProtocol = json || (constraint && parseJsonProtocolReply(content, toolNames).kind !== "invalid");
  if (asProtocol && toolCalls.length === 0)
    return { ...interpretJsonReply(content, thinking, toolNames, promptTokens, completionTokens), ...counts };

  const message: ConversationMessage = { role: "assistant", content };
  if (thinking) message.thinking = thinking;
  if (thinking && signature) message.thinkingSignature = signature;
  const unreadable =
    toolCalls.length === 0 && content.trim() && recoversTextCalls(config.provider, config.toolProtocol)
      ? recoverFromText(message, content, tools, toolCalls)
      : undefined;
  // Held text that was no call after all is shown; a recovered call's text stays hidden.
  if (message.content === content) release();
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  const reply: ModelReply = { message, promptTokens, completionTokens, ...counts };
  if (toolCalls.length === 0 && !content.trim()) {
    reply.unusable = { kind: "empty", detail: "the model returned an empty reply" };
    const inThinking = thinking ? callEndingThinking(thinking, tools) : [];
    if (inThinking.length > 0) reply.callInThinking = inThinking[0]!.name;
  } else if (unreadable) {
    // Markup that looks like a call but is not one is never a final answer: the loop asks again.
    reply.unusable = { kind: "malformed", detail: unreadable };
  }
  return reply;
}

/** What one streamed reply carried: its text, thinking, native calls, the error and the token counts. */
interface Streamed {
  content: string;
  thinking: string;
  signature: string;
  toolCalls: ToolCall[];
  error?: ProviderError;
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
}

/** Reads the provider's stream, passing deltas on as events (text held by `guard` while it may be a call). */
async function readStream(
  provider: Provider,
  messages: ConversationMessage[],
  tools: ToolSpec[],
  config: RunConfig,
  signal: AbortSignal,
  emit: (e: RunEvent) => void,
  guard: ToolCallStreamGuard,
  constraint: ReplyConstraint | undefined,
): Promise<Streamed> {
  const json = config.toolProtocol === "json";
  const out: Streamed = { content: "", thinking: "", signature: "", toolCalls: [] };
  let writing: string | undefined;
  for await (const ev of provider.stream({
    model: config.model,
    messages,
    tools: wireToolSpecs(config, tools),
    ...(constraint ? { constraint } : {}),
    numCtx: config.numCtx,
    keepAlive: config.keepAlive,
    temperature: config.temperature,
    think: config.think,
    ...(config.slot !== undefined ? { slot: config.slot } : {}),
    signal,
    idleTimeoutMs: config.idleTimeoutMs,
  })) {
    switch (ev.type) {
      case "text":
        out.content += ev.delta;
        // A constrained reply names its tool on the status line as soon as the name is complete.
        if (constraint && !writing) {
          writing = writtenToolName(out.content, ev.delta.length);
          if (writing === RESPONSE_TOOL) emit({ type: "status", phase: "answering" });
          else if (writing) emit({ type: "status", phase: "thinking", writing });
        }
        // The JSON protocol's raw object is not for the user's eyes: show it as thinking.
        if (json) emit({ type: "thinking", delta: ev.delta });
        else {
          const shown = guard.push(ev.delta);
          if (shown) emit({ type: "text", delta: shown });
        }
        break;
      case "thinking":
        out.thinking += ev.delta;
        emit({ type: "thinking", delta: ev.delta });
        break;
      case "thinking-signature":
        out.signature += ev.signature;
        break;
      case "tool-call":
        out.toolCalls.push({ ...ev.call, id: ev.call.id || newCallId() });
        break;
      case "notice":
        emit({ type: "notice", level: "warn", text: ev.text });
        break;
      case "done":
        out.promptTokens = ev.promptTokens;
        out.completionTokens = ev.completionTokens;
        out.cachedTokens = ev.cachedTokens;
        break;
      case "error":
        out.error = ev.error;
        break;
    }
  }
  return out;
}

/**
 * Calls a model wrote into its text, recovered into `toolCalls` (the arguments typed by each tool's
 * schema and checked against it) and cut from the message; or why the markup could not be read.
 */
function recoverFromText(
  message: ConversationMessage,
  content: string,
  tools: ToolSpec[],
  toolCalls: ToolCall[],
): string | undefined {
  const recovered = recoverToolCalls(content, tools);
  if (recovered.calls.length > 0) {
    message.content = recovered.rest;
    for (const c of recovered.calls) toolCalls.push({ id: newCallId(), name: c.name, args: c.args });
    return undefined;
  }
  if (recovered.unknown.length > 0)
    return `it wrote a call to ${[...new Set(recovered.unknown)].map((n) => `"${n}"`).join(", ")}, which is not a tool`;
  if (recovered.malformed)
    return (
      recovered.detail ?? "it wrote a tool call into its text that could not be read (broken JSON or an unknown format)"
    );
  return undefined;
}

/**
 * A server that cuts a prompt longer than its window says so only in its count: Ollama's
 * /api/chat drops the oldest messages to fit num_ctx; Ollama's /v1 ignores num_ctx and sits at its
 * default; llama.cpp started with a small -c and an LM Studio model loaded at 4k keep what fits.
 * The prompt count then falls far below our estimate of everything sent: the system prompt, the
 * tool schemas and the messages (issue 43: a check of the messages alone missed a server that
 * held 2,048 of ~7,000 tokens). The alarm needs the count under 60% of the estimate, so a tokenizer
 * that packs text tighter than ours does not raise it. (An Ollama that counted only the tokens it evaluated, between 0.30 and ollama#16428, could look
 * cut on a warm cache; a prompt far under num_ctx can still be cut: gpt-oss runs in num_ctx/2 + 2,
 * ollama/ollama#17427.) Anthropic refuses a prompt over its window instead. Returns the window the server holds, and
 * what to tell the user (once a session: the loop decides).
 */
function truncation(
  config: RunConfig,
  messages: ConversationMessage[],
  tools: readonly ToolSpec[],
  promptTokens: number,
): ModelReply["truncated"] {
  if (config.provider === "anthropic") return undefined;
  const estimate = estimateTokens(messages) + toolSpecTokens(tools);
  if (!truncationSuspected(promptTokens, estimate)) return undefined;
  const window = roundWindow(promptTokens);
  const fix =
    config.provider === "ollama"
      ? `/compact or /new helps; a larger --num-ctx-cap keeps more`
      : `start it with a larger context, or use Ollama's native API (--provider ollama) if it is Ollama`;
  const notice =
    `The server cut the prompt to ${window.toLocaleString("en-US")} tokens (it read ${promptTokens} of about ${estimate} sent): ` +
    `the model no longer sees the start of the conversation. ${fix[0]!.toUpperCase()}${fix.slice(1)}.`;
  return { window, notice };
}

/** A count just under a round window (4,090 of 4,096) is that window. */
export function roundWindow(held: number): number {
  const power = 2 ** Math.ceil(Math.log2(Math.max(1, held)));
  return held >= power * 0.95 ? power : held;
}

function interpretJsonReply(
  content: string,
  thinking: string,
  toolNames: string[],
  promptTokens: number | undefined,
  completionTokens: number | undefined,
): ModelReply {
  const parsed = parseJsonProtocolReply(content, toolNames);
  const thoughts = [thinking, ...(parsed.kind === "invalid" ? [] : parsed.thoughts)].filter(Boolean).join("\n");
  const base = { promptTokens, completionTokens };
  switch (parsed.kind) {
    case "response": {
      const message: ConversationMessage = { role: "assistant", content: parsed.text };
      if (thoughts) message.thinking = thoughts;
      return { ...base, message };
    }
    case "tool": {
      const message: ConversationMessage = {
        role: "assistant",
        content: "",
        toolCalls: [{ id: newCallId(), name: parsed.name, args: parsed.args }],
      };
      if (thoughts) message.thinking = thoughts;
      return { ...base, message };
    }
    case "invalid": {
      const message: ConversationMessage = { role: "assistant", content };
      if (thinking) message.thinking = thinking;
      return { ...base, message, unusable: { kind: content.trim() ? "malformed" : "empty", detail: parsed.error } };
    }
  }
}

/** The protocol's `"tool_name": "…"` once its closing quote has streamed; only the new end is searched. */
function writtenToolName(content: string, added: number): string | undefined {
  const near = content.slice(Math.max(0, content.length - added - 80));
  return /"tool_name"\s*:\s*"([^"\\]{1,80})"/.exec(near)?.[1];
}
