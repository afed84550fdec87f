import type { ConversationMessage } from "../../protocol/conversation.js";
import type { Entry, Model } from "../model.js";
import { parseTodos, TODO_TOOL } from "./todo-items.js";

type NewEntry = Entry extends infer E ? (E extends Entry ? Omit<E, "id"> : never) : never;

/** Appends an entry (update runs inside immer, so this mutates a draft). */
export function addEntry(model: Model, entry: NewEntry): void {
  model.entries.push({ ...entry, id: model.nextId++ } as Entry);
}

/**
 * The assistant entry receiving the current run's deltas, named by the run. Not always the newest
 * entry: a notice, a diff or a queued-message note may land below an answer mid-stream, and the
 * answer goes on in place.
 */
export function streamingEntry(model: Model): Extract<Entry, { kind: "assistant" }> | undefined {
  const id = model.run?.streamingId;
  if (id === undefined) return undefined;
  for (let i = model.entries.length - 1; i >= 0; i--) {
    const e = model.entries[i]!;
    if (e.id === id) return e.kind === "assistant" && e.streaming ? e : undefined;
    if (e.id < id) break;
  }
  return undefined;
}

/** A generic label for a tool call, used when rebuilding a transcript from a saved conversation. */
export function fallbackLabel(name: string, args: Record<string, unknown>): string {
  const main = args.path ?? args.command ?? args.pattern ?? args.query ?? args.url ?? args.task ?? args.name;
  return typeof main === "string" ? `${name} ${main}` : name;
}

/** The note under a user message that was typed differently from what the model got. */
export function typedNote(typed: string): string | undefined {
  if (typed.startsWith("/")) return "expanded skill";
  if (typed.startsWith("!")) return undefined;
  return "with attached files";
}

/** A `!command` message (see shell.ts shellContext) as its transcript entry. */
function shellEntry(typed: string, content: string, id: number): Entry {
  const lines = content.split("\n");
  const last = lines[lines.length - 1] ?? "";
  const code = /^\[exit code (\d+)\]$/.exec(last);
  const output = lines.slice(2, -1).join("\n");
  return {
    kind: "shell",
    id,
    command: typed.slice(1),
    output,
    exitCode: code ? Number(code[1]) : null,
    running: false,
  };
}

/** Rebuilds what the transcript showed from a saved conversation (resume, /undo). */
export function entriesFromConversation(
  conversation: ConversationMessage[],
  startId: number,
): { entries: Entry[]; nextId: number } {
  const entries: Entry[] = [];
  let id = startId;
  const callLabels = new Map<string, string>();
  for (const m of conversation) {
    switch (m.role) {
      case "system":
        break;
      case "user":
        if (m.typed?.startsWith("!")) {
          entries.push(shellEntry(m.typed, m.content, id++));
          break;
        }
        entries.push({
          kind: "user",
          id: id++,
          text: m.typed ?? m.content,
          note: m.typed ? typedNote(m.typed) : undefined,
        });
        break;
      case "assistant":
        if (m.content || m.thinking) {
          entries.push({
            kind: "assistant",
            id: id++,
            text: m.content,
            thinking: m.thinking ?? "",
            streaming: false,
            interrupted: !!m.interrupted,
          });
        }
        for (const c of m.toolCalls ?? []) {
          callLabels.set(c.id, fallbackLabel(c.name, c.args));
          const todos = c.name === TODO_TOOL ? parseTodos(c.args) : null;
          if (todos) entries.push({ kind: "todos", id: id++, items: todos });
        }
        break;
      case "tool": {
        const d = m.display;
        entries.push({
          kind: "tool",
          id: id++,
          callId: m.toolCallId ?? "",
          name: m.toolName ?? "",
          label: d?.label ?? callLabels.get(m.toolCallId ?? "") ?? m.toolName ?? "tool",
          state: d && !d.ok ? "error" : "ok",
          summary: d?.summary ?? "",
          startedAt: 0,
          depth: 0,
          ...(d?.output !== undefined ? { output: d.output } : {}),
          ...(d?.outputLang ? { outputLang: d.outputLang } : {}),
        });
        if (d?.diff) entries.push({ kind: "diff", id: id++, path: d.path ?? "", unified: d.diff, depth: 0 });
        break;
      }
    }
  }
  return { entries, nextId: id };
}

/** Tool calls in the conversation that have no result yet (e.g. the worker died mid-step). */
export function unansweredCalls(conversation: ConversationMessage[]): { id: string; name: string }[] {
  const answered = new Set(conversation.filter((m) => m.role === "tool").map((m) => m.toolCallId));
  return conversation
    .flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []))
    .filter((c) => !answered.has(c.id))
    .map((c) => ({ id: c.id, name: c.name }));
}
