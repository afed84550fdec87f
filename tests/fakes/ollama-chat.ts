// Plays one scripted chat reply onto an HTTP response, the way Ollama's streamResponse does:
// headers go out with the first chunk, one JSON object per line, a final done:true line with metrics.
import type { ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import type { FakeToolCall, RecordedChat, Reply, Step, WireToolCall } from "./ollama-types.js";

export function callId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return "call_" + [...randomBytes(8)].map((b) => alphabet[b % alphabet.length]).join("");
}

/** One NDJSON line as Ollama writes it (field order as Go marshals the struct). */
export function chatLine(model: string, message: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return (
    JSON.stringify({
      model,
      created_at: new Date().toISOString(),
      message: { role: "assistant", content: "", ...message },
      done: false,
      ...extra,
    }) + "\n"
  );
}

export function estimateTokens(value: unknown): number {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? "");
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Live state of one chat response, shared with the server so it can see disconnects. */
export interface ChatConn {
  res: ServerResponse;
  /** The socket is gone (either side). */
  closed: boolean;
  /** We ended or reset it on purpose: not a client abort. */
  serverEnded: boolean;
  onClose: Promise<void>;
}

/** Waits ms, or less if the connection closes first; leaves no timer behind. */
function sleep(ms: number, conn: ChatConn): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([new Promise<void>((r) => (timer = setTimeout(r, ms))), conn.onClose]).finally(() =>
    clearTimeout(timer),
  );
}

function split(text: string, size: number | undefined): string[] {
  if (!size || size <= 0 || text.length <= size) return [text];
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

function wireCalls(calls: FakeToolCall[], counter: { n: number; legacy?: boolean }): WireToolCall[] {
  if (counter.legacy) return calls.map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
  return calls.map((c) => ({
    id: c.id ?? callId(),
    function: { index: counter.n++, name: c.name, arguments: c.arguments },
  }));
}

/** The prompt as a server counts it: the tool schemas are part of it (the template renders them). */
function promptCount(chat: RecordedChat, reply: Reply): number {
  return (
    reply.promptEvalCount ??
    chat.cache?.total ??
    estimateTokens(chat.messages) + (chat.tools?.length ? estimateTokens(chat.tools) : 0)
  );
}

function metrics(promptEvalCount: number, evalCount: number): Record<string, number> {
  return {
    total_duration: 912_000_000,
    load_duration: 21_000_000,
    prompt_eval_count: promptEvalCount,
    prompt_eval_duration: 40_000_000,
    eval_count: evalCount,
    eval_duration: 800_000_000,
  };
}

function writeHead(conn: ChatConn): void {
  if (!conn.res.headersSent)
    conn.res.writeHead(200, { "Content-Type": "application/x-ndjson", "Transfer-Encoding": "chunked" });
}

function write(conn: ChatConn, data: string | Uint8Array): void {
  if (conn.closed) return;
  writeHead(conn);
  conn.res.write(data);
}

export async function playChat(conn: ChatConn, chat: RecordedChat, reply: Reply): Promise<void> {
  const { res } = conn;
  if (reply.loadDelayMs) await sleep(reply.loadDelayMs, conn);
  if (chat.cache?.prefillMs) await sleep(chat.cache.prefillMs, conn);
  if (conn.closed) return;
  if (reply.status !== undefined && reply.status !== 200) {
    conn.serverEnded = true;
    const isText = typeof reply.body === "string";
    res.writeHead(reply.status, {
      "Content-Type": isText ? "text/plain; charset=utf-8" : "application/json; charset=utf-8",
    });
    res.end(isText ? reply.body : JSON.stringify(reply.body ?? { error: "error" }));
    return;
  }
  if (reply.closeAfterHeaders) {
    conn.serverEnded = true;
    writeHead(conn);
    res.end();
    return;
  }
  if (!chat.stream) return playAggregated(conn, chat, reply);

  const counter = { n: 0, legacy: reply.legacyToolCalls === true };
  let evalChars = 0;
  let finalMessage: Record<string, unknown> = {};
  for (const step of reply.steps) {
    if (step.delayMs) await sleep(step.delayMs, conn);
    if (conn.closed) return;
    if (step.raw !== undefined) write(conn, step.raw);
    const message = stepMessage(step, counter);
    evalChars += (step.text ?? "").length + (step.thinking ?? "").length;
    if (step.done) {
      finalMessage = message;
      break;
    }
    if (Object.keys(message).length > 0) {
      const texts = split(step.text ?? "", reply.chunkChars);
      texts.forEach((text, i) => {
        const part: Record<string, unknown> = { ...message, content: text };
        if (i > 0) {
          delete part.thinking;
          delete part.tool_calls;
        }
        write(conn, chatLine(chat.model, part));
      });
    }
    if (step.error !== undefined) {
      conn.serverEnded = true;
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ error: step.error }));
      } else res.end(JSON.stringify({ error: step.error }) + "\n");
      return;
    }
    if (step.destroy) {
      conn.serverEnded = true;
      res.socket?.destroy();
      return;
    }
    if (step.hang) {
      await conn.onClose;
      return;
    }
  }
  if (conn.closed) return;
  const done = {
    done: true,
    done_reason: reply.doneReason ?? "stop",
    ...metrics(promptCount(chat, reply), reply.evalCount ?? estimateTokens("x".repeat(evalChars))),
    ...(chat.cache ? { prompt_eval_cached_count: chat.cache.cached } : {}),
  };
  conn.serverEnded = true;
  write(conn, chatLine(chat.model, finalMessage, done));
  res.end();
}

function stepMessage(step: Step, counter: { n: number; legacy?: boolean }): Record<string, unknown> {
  const message: Record<string, unknown> = {};
  if (step.text !== undefined) message.content = step.text;
  if (step.thinking !== undefined) message.thinking = step.thinking;
  if (step.toolCalls?.length) message.tool_calls = wireCalls(step.toolCalls, counter);
  return message;
}

/** stream:false — one JSON object with everything concatenated. */
function playAggregated(conn: ChatConn, chat: RecordedChat, reply: Reply): void {
  const counter = { n: 0, legacy: reply.legacyToolCalls === true };
  let content = "";
  let thinking = "";
  const toolCalls: WireToolCall[] = [];
  for (const step of reply.steps) {
    if (step.error !== undefined) {
      conn.serverEnded = true;
      conn.res.writeHead(500, { "Content-Type": "application/json; charset=utf-8" });
      conn.res.end(JSON.stringify({ error: step.error }));
      return;
    }
    content += step.text ?? "";
    thinking += step.thinking ?? "";
    if (step.toolCalls) toolCalls.push(...wireCalls(step.toolCalls, counter));
  }
  const message: Record<string, unknown> = { role: "assistant", content };
  if (thinking) message.thinking = thinking;
  if (toolCalls.length) message.tool_calls = toolCalls;
  const body = {
    model: chat.model,
    created_at: new Date().toISOString(),
    message,
    done: true,
    done_reason: reply.doneReason ?? "stop",
    ...metrics(promptCount(chat, reply), reply.evalCount ?? estimateTokens(content + thinking)),
  };
  conn.serverEnded = true;
  conn.res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
  conn.res.end(JSON.stringify(body));
}
