import type { ConversationMessage } from "../protocol/conversation.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import {
  SessionWriter,
  loadSession,
  listSessions,
  resolveSession,
  shorten,
  formatRelativeTime,
} from "../session/writer.js";
import type { Logger } from "../session/log.js";
import { configFilePath } from "../context/dirs.js";
import type { PromptPart } from "../context/prompt.js";
import type { Services, Opened } from "../ui/runtime/services.js";
import type { PickerItem } from "../ui/model.js";
import { checkpointDirFor } from "../session/checkpoint-dir.js";
import { pairToolResults } from "../protocol/history.js";
import path from "node:path";

export interface SessionState {
  dir: string;
  /** The session being written; created lazily at the first message. */
  writer?: SessionWriter;
  id: string;
  /** Title for a new session: its first prompt. */
  title?: string;
}

/** Opens a saved session for resuming: its conversation and a writer that appends to it. */
export function openSaved(
  dir: string,
  idOrPrefix: string,
):
  | { ok: true; writer: SessionWriter; conversation: ConversationMessage[]; model?: string; tokensUsed: number }
  | { ok: false; error: string } {
  const resolved = resolveSession(dir, idOrPrefix);
  if (!resolved.ok) return resolved;
  const loaded = loadSession(resolved.path);
  if (!loaded.ok) return { ok: false, error: loaded.error };
  try {
    const writer = SessionWriter.open(dir, resolved.id);
    // A crash mid-step can leave a tool call without its result: fill it in, right after the
    // call, and save that, so the transcript shows the tool as stopped and the history is valid.
    const conversation = pairToolResults(loaded.messages);
    if (conversation !== loaded.messages) writer.reset(conversation);
    return {
      ok: true,
      writer,
      conversation,
      model: loaded.meta.model ?? loaded.header.model,
      tokensUsed: loaded.tokensUsed,
    };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/** A session's title: its first prompt, on one line. */
function titleOf(message: ConversationMessage): string {
  return shorten((message.typed ?? message.content).replace(/\s+/g, " "), 80);
}

/** Appends a message, creating the session file with its first message. */
export function appendToSession(state: SessionState, config: RunConfig, message: ConversationMessage): void {
  if (!state.writer) {
    const title = message.role === "user" ? titleOf(message) : "";
    state.writer = SessionWriter.create(state.dir, {
      id: state.id,
      cwd: config.cwd,
      provider: config.provider,
      model: config.model,
      title,
    });
  }
  state.writer.append(message);
}

export function createServices(opts: {
  state: SessionState;
  config: () => RunConfig;
  logger: Logger;
  promptParts: () => PromptPart[];
  newId: () => string;
  onError: (text: string) => void;
}): Services {
  const { state, logger } = opts;
  const guard = (what: string, f: () => void) => {
    try {
      f();
    } catch (err) {
      // Saving must never take the app down; the user is told and the session goes on in memory.
      opts.onError(`Could not ${what}: ${(err as Error).message}`);
      logger.error(`${what}: ${(err as Error).message}`);
    }
  };
  return {
    sessionId: () => state.id,
    saved: () => state.writer !== undefined,
    appendMessage: (m) => guard("save the session", () => appendToSession(state, opts.config(), m)),
    resetSession: (conversation) =>
      guard("save the session", () => {
        state.writer?.reset(conversation);
        // /clear: the turns that /undo could restore are gone from the conversation.
        if (conversation.length === 0 && state.writer) {
          void import("../session/checkpoints.js").then(({ Checkpoints }) =>
            new Checkpoints(checkpointDirFor(state.writer!.path)).clear(),
          );
        }
      }),
    sessionMeta: (fields: { model?: string; permissionMode?: PermissionMode }) =>
      guard("save the session", () => state.writer?.meta(fields)),
    newSession() {
      state.writer?.close();
      state.writer = undefined;
      state.id = opts.newId();
      return state.id;
    },
    openSession(idOrPrefix): Opened {
      const opened = openSaved(state.dir, idOrPrefix);
      if (!opened.ok) return opened;
      state.writer?.close();
      state.writer = opened.writer;
      state.id = opened.writer.id;
      return {
        ok: true,
        sessionId: state.id,
        conversation: opened.conversation,
        model: opened.model,
        tokensUsed: opened.tokensUsed,
      };
    },
    listSessions() {
      const { sessions, warnings } = listSessions(state.dir);
      const now = Date.now();
      const items: PickerItem[] = sessions.map((s) => ({
        value: s.id,
        label: `${s.id.slice(0, 8)}  ${shorten(s.title || "(untitled)", 50)}`,
        detail: `${formatRelativeTime(s.updated, now)} · ${s.messageCount} message${s.messageCount === 1 ? "" : "s"} · ${s.cwd}`,
      }));
      return { items, warnings };
    },
    async listModels() {
      // Providers (and their SDKs) load on demand: they are not needed for the first frame.
      const { createProvider } = await import("../providers/index.js");
      const models = await createProvider(opts.config()).listModels();
      return models.map((m) => ({
        value: m.name,
        label: m.name,
        detail: [
          m.size ? `${(m.size / 1e9).toFixed(1)} GB` : "",
          m.contextLength ? `ctx ${m.contextLength}` : "",
          m.capabilities.length ? (m.capabilities.includes("tools") ? "tools" : "no tools") : "",
          m.capabilities.includes("thinking") ? "thinking" : "",
          m.capabilities.includes("vision") ? "vision" : "",
        ]
          .filter(Boolean)
          .join(" · "),
      }));
    },
    saveConfig(keys) {
      const file = configFilePath();
      import("../context/config.js")
        .then(({ saveConfigKeys }) => saveConfigKeys(file, keys))
        .catch((err: Error) => opts.onError(`Could not save ${file}: ${err.message}`));
      return `Saved ${Object.keys(keys).join(", ")} to ${file}.`;
    },
    async show(what, conversation = []) {
      switch (what) {
        case "context": {
          const { formatContextReport, formatBudget } = await import("../context/prompt.js");
          const parts = opts.promptParts();
          const c = opts.config();
          const [{ toolsFor }, { toolSpecs }, { estimateTokens, estimateTextTokens }] = await Promise.all([
            import("../tools/catalog.js"),
            import("../tools/runner.js"),
            import("../agent/compaction/index.js"),
          ]);
          // The JSON reply protocol puts the tools into the system prompt instead of schemas.
          const schemas = estimateTextTokens(JSON.stringify(toolSpecs(toolsFor(c))));
          const budget = formatBudget(c.numCtx, [
            ["system prompt", parts.reduce((sum, p) => sum + p.tokens, 0)],
            [c.toolProtocol === "json" ? "tools (in the prompt)" : "tool schemas", schemas],
            [`messages (${conversation.length})`, estimateTokens(conversation)],
          ]);
          return `${budget}\n\n${formatContextReport(parts)}`;
        }
        case "memory": {
          const { listMemories, memoryDirs } = await import("../context/memory.js");
          const c = opts.config();
          const memories = await listMemories(memoryDirs(c.cwd, c.configDir));
          return memories.length
            ? memories.map((m) => `${m.name} (${m.type}) — ${m.description}`).join("\n")
            : "No memories saved yet.";
        }
        case "mcp":
          // /mcp is answered by the worker, which runs the servers (runtime.ts).
          return "No MCP servers configured.";
      }
    },
    checkpointDir: () => (state.writer ? checkpointDirFor(state.writer.path) : undefined),
    async undo(conversation, force) {
      if (!state.writer) return { ok: false, text: "Nothing to undo yet." };
      const cwd = opts.config().cwd;
      const rel = (p: string) => path.relative(cwd, p) || p;
      const { Checkpoints } = await import("../session/checkpoints.js");
      const result = await new Checkpoints(checkpointDirFor(state.writer.path)).undo({ force });
      if (!result) return { ok: false, text: "Nothing to undo." };
      if (!result.applied) {
        return {
          ok: false,
          text: `Not undone: ${result.conflicts.map(rel).join(", ")} changed outside agent0 since that turn. Type /undo force to overwrite ${result.conflicts.length === 1 ? "it" : "them"} anyway.`,
        };
      }
      const kept = conversation.slice(0, result.turn);
      state.writer.reset(kept);
      // The title follows the conversation: the first prompt still in it (none: untitled).
      const first = kept.find((m) => m.role === "user");
      state.writer.meta({ title: first ? titleOf(first) : "" });
      const lines = [
        `Undid the last turn${result.restored.length + result.removedCreated.length ? ":" : " (it changed no files)."}`,
        ...result.restored.map((p) => `  restored ${rel(p)}`),
        ...result.removedCreated.map((p) => `  removed ${rel(p)} (created in that turn)`),
      ];
      if (result.ranShell) lines.push("That turn ran shell commands; their effects cannot be undone.");
      return { ok: true, text: lines.join("\n"), conversation: kept };
    },
    log: (kind, data) => (kind === "event" ? logger.event(data as never) : logger.info(kind, { data })),
    async close() {
      state.writer?.close();
      logger.close();
    },
  };
}
