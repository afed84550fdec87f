import type { OwnEnviron } from "../safety/own-environ.js";
import path from "node:path";
import type { McpSession } from "./mcp-session.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import { listSessions, shorten, formatRelativeTime } from "../session/list.js";
import type { SessionRecorder } from "../session/recorder.js";
import type { Logger } from "../session/log.js";
import { configFilePath } from "../context/dirs.js";
import { chooseToolProtocol, toolProtocolLabel } from "../protocol/tool-protocol.js";
import type { Services, Opened } from "../ui/runtime/services.js";
import type { PickerItem } from "../ui/model.js";
import type { InputHistory } from "./input-history.js";
import { resumeInto } from "./resume-into.js";
import { FileIndexClient } from "./file-index.js";
import { rewindToMessage, undoLastTurn } from "./undo.js";

export function createServices(opts: {
  /** What main's start did with the secrets of its own environment (safety/own-environ.ts). */
  ownEnviron: OwnEnviron;
  recorder: SessionRecorder;
  dir: string;
  config: () => RunConfig;
  logger: Logger;
  onError: (text: string) => void;
  history?: InputHistory;
  mcp: McpSession;
}): Services {
  const { recorder, logger } = opts;
  const fileIndex = new FileIndexClient(() => opts.config().cwd);
  const rel = (p: string) => path.relative(opts.config().cwd, p) || p;
  /** The engine offer's install or download under way (Esc stops it). */
  let offerRun: AbortController | undefined;
  return {
    sessionId: () => recorder.id,
    appendMessage: (m) => recorder.append(m),
    resetSession: (conversation) => {
      recorder.reset(conversation);
      // /clear: the turns that /undo could restore are gone from the conversation.
      if (conversation.length === 0 && recorder.started) {
        const dir = recorder.checkpointDir;
        void import("../session/checkpoints.js")
          .then(({ Checkpoints }) => new Checkpoints(dir).clear())
          .catch((err: Error) => logger.error(`clear checkpoints: ${err.message}`));
      }
    },
    sessionMeta: (fields: { model?: string; permissionMode?: PermissionMode }) => recorder.meta(fields),
    record: (event) => recorder.event(event),
    newSession() {
      recorder.startNew();
      return recorder.id;
    },
    openSession(idOrPrefix): Opened {
      const opened = resumeInto(recorder, opts.dir, idOrPrefix);
      if (!opened.ok) return opened;
      return { ...opened, sessionId: recorder.id };
    },
    listSessions() {
      const { sessions, warnings } = listSessions(opts.dir);
      const now = Date.now();
      const items: PickerItem[] = sessions.map((s) => ({
        value: s.id,
        label: `${s.id.slice(0, 8)}  ${shorten(s.title || "(untitled)", 50)}`,
        detail: [
          formatRelativeTime(s.updated, now),
          `${s.messageCount} messages`,
          s.cwd,
          ...(s.parent ? [`fork of ${s.parent.slice(0, 8)}`] : []),
          ...(s.openBy !== undefined ? [`open now (pid ${s.openBy})`] : []),
          ...(s.damaged ? [`damaged: ${s.damaged} unreadable line${s.damaged === 1 ? "" : "s"}`] : []),
        ].join(" · "),
      }));
      return { items, warnings };
    },
    async listModels() {
      const { listModels, listLocalModels, formatBytes } = await import("./tool-use.js");
      const c = opts.config();
      // No server answering leaves the engine's models to choose from.
      const models = await listModels(c).catch(() => []);
      const served = models.map((m) => ({ value: m.name, label: m.name, detail: modelDetail(m, c.provider) }));
      if (c.provider === "embedded") return served.length ? served : engineRows(c.dataDir);
      return [...served, ...engineRows(c.dataDir)];
      /** The engine's catalogue and downloaded files, chosen as `embedded/<name>` (the engine then runs them). */
      function engineRows(dataDir: string) {
        return listLocalModels(dataDir).map((r) => ({
          value: c.provider === "embedded" ? r.name : `embedded/${r.name}`,
          label: c.provider === "embedded" ? r.name : `embedded/${r.name}`,
          detail: r.path
            ? `downloaded · ${formatBytes(r.sizeBytes)}`
            : `${formatBytes(r.sizeBytes)} to download${r.entry ? ` · ${r.entry.note}` : ""}`,
        }));
      }
    },
    saveConfig(keys) {
      const file = configFilePath();
      import("../context/config.js")
        .then(({ saveConfigKeys }) => saveConfigKeys(file, keys))
        .catch((err: Error) => opts.onError(`Could not save ${file}: ${err.message}`));
      return `Saved ${Object.keys(keys).join(", ")} to ${file}.`;
    },
    async doctor(terminal) {
      const [{ runDoctor, formatDoctor }, { terminalSupport }] = await Promise.all([
        import("./doctor.js"),
        import("../ui/runtime/terminal-support.js"),
      ]);
      const c = opts.config();
      const checks = await runDoctor({
        cwd: c.cwd,
        env: process.env,
        environ: opts.ownEnviron,
        support: terminalSupport(process.env),
        answers: terminal,
        // What this session uses now (after /model too), not what a new launch would.
        flags: { provider: c.provider, model: c.model, host: c.host, ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}) },
      });
      return formatDoctor(checks);
    },
    async show(what) {
      switch (what) {
        case "agents": {
          const { formatAgentTypes } = await import("./agents-list.js");
          const c = opts.config();
          return formatAgentTypes(c.cwd, c.configDir, c.provider);
        }
        case "memory": {
          const { listMemories, memoryDirs } = await import("../context/memory.js");
          const c = opts.config();
          const memories = await listMemories(memoryDirs(c.cwd, c.configDir));
          return memories.length
            ? memories.map((m) => `${m.name} (${m.type}) — ${m.description}`).join("\n")
            : "No memories saved yet.";
        }
      }
    },
    mcpTrust: (decisions) => opts.mcp.trust(decisions),
    mcpReload: () => opts.mcp.reload(),
    setPluginEnabled: (name, enabled) => opts.mcp.setPluginEnabled(name, enabled),
    addProjectRule: (rule) => opts.mcp.addProjectRule(rule),
    removeRule: (rule, file) => opts.mcp.removeRule(rule, file),
    runStamp: () => recorder.runStamp(),
    undo: (conversation, force) => undoLastTurn(recorder, opts.config().cwd, conversation, force),
    rewind: (conversation, turn, restore, force) =>
      rewindToMessage(recorder, opts.config().cwd, conversation, turn, restore, force),
    matchFiles: (query, refresh, onMatches) => fileIndex.match(query, refresh, onMatches),
    async exportMarkdown(conversation, model, file) {
      const { conversationMarkdown } = await import("../session/export.js");
      const fsp = await import("node:fs/promises");
      const target = path.resolve(opts.config().cwd, file ?? `agent0-${recorder.id.slice(0, 8)}.md`);
      const text = conversationMarkdown(conversation, {
        sessionId: recorder.id,
        model,
        exportedAt: new Date().toISOString(),
      });
      await fsp.writeFile(target, text.endsWith("\n") ? text : `${text}\n`);
      return `Exported ${conversation.filter((m) => m.role !== "system").length} messages to ${target}`;
    },
    async reviewDiff(target) {
      const { reviewDiff } = await import("../context/review.js");
      return reviewDiff(opts.config().cwd, target);
    },
    async sessionDiff() {
      if (!recorder.started) return [];
      const { Checkpoints } = await import("../session/checkpoints.js");
      const { makeUnifiedDiff } = await import("../render/diff.js");
      const fsp = await import("node:fs/promises");
      const changes = await new Checkpoints(recorder.checkpointDir).sessionChanges();
      const diffs: { path: string; unified: string }[] = [];
      for (const c of changes) {
        const now = await fsp.readFile(c.path).catch(() => null);
        if (now === null && c.before === null) continue;
        if (now !== null && c.before !== null && now.equals(c.before)) continue;
        diffs.push({
          path: rel(c.path),
          unified: makeUnifiedDiff(rel(c.path), c.before?.toString("utf8") ?? "", now?.toString("utf8") ?? ""),
        });
      }
      return diffs;
    },
    async readMentions(text, mentions) {
      const { readMentions } = await import("./attach.js");
      return readMentions(text, opts.config().cwd, mentions);
    },
    async acceptOffer(offer, onLine) {
      offerRun?.abort();
      const controller = new AbortController();
      offerRun = controller;
      const { acceptOffer } = await import("./engine-setup.js");
      const c = opts.config();
      return acceptOffer(offer, { dataDir: c.dataDir, env: process.env, signal: controller.signal, onLine }).catch(
        (err: Error) => ({ ok: false as const, message: err.message }),
      );
    },
    cancelOffer: () => offerRun?.abort(),
    async runShell(command, signal) {
      const { runUserShell } = await import("./tool-use.js");
      return runUserShell(command, opts.config(), signal);
    },
    appendHistory: (text) => {
      try {
        opts.history?.append(text);
      } catch (err) {
        // Losing one history line must never take the app down; the user is told.
        opts.onError(`Could not save the input history: ${(err as Error).message}`);
      }
    },
    log: (kind, data) => (kind === "event" ? logger.event(data as never) : logger.info(kind, { data })),
    close() {
      const report = recorder.close();
      logger.close();
      fileIndex.close();
      return Promise.resolve(
        report.kind === "nothing" ? undefined : { ok: report.kind === "saved", text: report.text },
      );
    },
  };
}

/**
 * A model's line in the /model picker: size, window, how it calls tools, what else it can do, and
 * Ollama's renderer and parser for it (the first thing a tool-call bug report needs).
 */
export function modelDetail(
  m: { size?: number; contextLength?: number; capabilities: string[]; renderer?: string; parser?: string },
  provider: RunConfig["provider"],
): string {
  const can = (c: string) => m.capabilities.includes(c);
  return [
    m.size ? `${(m.size / 1e9).toFixed(1)} GB` : "",
    m.contextLength ? `ctx ${m.contextLength}` : "",
    `tools: ${toolProtocolLabel(provider, chooseToolProtocol(m.capabilities))}`,
    can("thinking") ? "thinking" : "",
    can("vision") ? "vision" : "",
    m.renderer ? `renderer ${m.renderer}` : "",
    m.parser ? `parser ${m.parser}` : "",
  ]
    .filter(Boolean)
    .join(" · ");
}
