// One agent session: it answers WorkerCommands with AgentEvents, and owns everything the agent
// keeps between commands — the run going on and its pending approvals, the permission mode the
// user last set, the MCP servers, what the tools remember. Nothing of it lives in a module, so a
// thread can hold several sessions (serve.ts is the adapter from a port to one; an editor's
// server holds many), and a test can drive one with a fake provider.
import type { AgentEvent, RunEvent } from "../protocol/agent-event.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { WorkerCommand } from "../protocol/worker-command.js";
import type { McpExpandRequest, McpServerView } from "../protocol/mcp-state.js";
import type { ConversationMessage, ImageAttachment } from "../protocol/conversation.js";
import { assertNever } from "../protocol/assert-never.js";
import type { Provider } from "../providers/types.js";
import type { ClientIo, ToolDef } from "../tools/types.js";
import { createSessionMemory, type SessionMemory } from "../tools/session-memory.js";
import { createBackgroundJobs } from "../tools/shell/jobs.js";
import { turnAfterCompaction, type Checkpoints } from "../session/checkpoints.js";
import { runAgent } from "./loop.js";
import { claudeToolName, hasHooks, runHooks, runNotificationHooks } from "./hooks/hooks.js";
import { createDeltaBatcher } from "./delta-batcher.js";
import type { PermissionAnswer } from "./approval.js";
import { ensureModelInfo, prefetchModelInfo, type Prefetched } from "./model-info.js";
import { warnIfOllamaBehindOpenAI, withLocalServers } from "./local-servers.js";
import { compactIfNeeded } from "./compaction/run.js";
import { sentTools, systemMessage } from "./request.js";
import { toolSpecs } from "../tools/runner.js";
import { providerKeeper } from "../providers/keeper.js";
import type { McpManager } from "./mcp/servers.js";
import { loadAgentTypes, type AgentType } from "../context/agent-types.js";

type Command<T extends WorkerCommand["type"]> = Extract<WorkerCommand, { type: T }>;

/** What a session is built from: where its events go, and the parts a test replaces. */
export interface AgentSessionDeps {
  /** Where the session's events go; text deltas are batched first (delta-batcher.ts). */
  post(e: AgentEvent): void;
  createProvider(config: RunConfig): Provider;
  /** Every tool of a run with this config and these MCP servers (tools/catalog.ts). */
  toolsFor(config: RunConfig, mcp: McpManager | undefined, agentTypes: readonly AgentType[]): ToolDef[];
  /** The /undo checkpoints kept in `dir` (session/checkpoints.ts). */
  checkpoints(dir: string): Checkpoints;
  /** The session has nothing to do (a run or the start-up probe ended): a thread may collect now. */
  idle?(): void;
  /** Called once a shutdown has stopped everything (its MCP servers included). */
  stopped?(): void;
  /** An editor's file system and terminal for the tools, when the session's client offers them (agent0 acp). */
  client?: ClientIo;
  /** Creates the MCP manager at the first mcp-sync that names a server (default: the SDK's, loaded then). */
  createMcp?(cwd: string, onChange: (servers: McpServerView[]) => void): Promise<McpManager>;
}

export interface AgentSession {
  handle(command: WorkerCommand): void;
  /** Stops the run going on and the MCP servers. */
  close(): Promise<void>;
}

/** The run (or compaction) going on: commands aimed at it name its id. */
interface ActiveRun {
  runId: number;
  controller: AbortController;
  /** The permission mode as the user last set it (set-mode); compactions have none. */
  mode?: PermissionMode;
  /** Approvals the user has not answered yet, by request id. */
  pending: Map<string, (a: PermissionAnswer) => void>;
  /** Messages the user typed during the run (steer), until the loop takes them at a step boundary. */
  steers: { id: number; message: ConversationMessage }[];
}

async function loadMcpManager(cwd: string, onChange: (servers: McpServerView[]) => void): Promise<McpManager> {
  const { McpManager } = await import("./mcp/servers.js");
  return new McpManager({}, { cwd, onChange });
}

export function createAgentSession(deps: AgentSessionDeps): AgentSession {
  const post = createDeltaBatcher(deps.post);
  /** Posts the events of one run (null: of no run), each stamped with that run's id. */
  const emitFor =
    (runId: number | null) =>
    (e: RunEvent): void =>
      post({ ...e, runId } satisfies AgentEvent);
  const emit = emitFor(null);
  const log = (text: string) => emit({ type: "log", text });
  const providers = providerKeeper(deps.createProvider);

  let active: ActiveRun | undefined;
  /** The last run's config: its hooks run at SessionEnd. */
  let lastConfig: RunConfig | undefined;
  // Background commands outlive runs and /new; they end with the session.
  const jobs = createBackgroundJobs((list) => emit({ type: "jobs", jobs: list }));
  let memory: SessionMemory = createSessionMemory(undefined, jobs);
  const prefetched: Prefetched = new Map();
  let mcp: McpManager | undefined;
  let mcpLoading: Promise<McpManager> | undefined;
  /** What the user was last told of each server, so a state is announced once. */
  const announced = new Map<string, string>();
  let syncing = 0;
  /** Syncs and restarts, one after another; a run waits for them (the servers it may use). */
  let mcpWork: Promise<void> = Promise.resolve();
  let closing: Promise<void> | undefined;

  /** The tools' memory of this conversation: /new (a new session id) starts a fresh one. */
  function memoryFor(config: RunConfig): SessionMemory {
    if (memory.sessionId !== config.sessionId) memory = createSessionMemory(config.sessionId, jobs);
    return memory;
  }

  /**
   * A run for another session id after one that had started: /clear or /new ended it (Claude
   * Code's SessionEnd "clear", then SessionStart "clear"), or /resume moved to another ("other").
   */
  async function endReplacedSession(
    config: RunConfig,
    conversation: readonly ConversationMessage[],
    emit: (e: RunEvent) => void,
  ): Promise<void> {
    if (!memory.sessionStarted || memory.sessionId === config.sessionId || !lastConfig) return;
    // A new conversation (nothing answered yet) follows a /clear or /new; one with answers, a /resume.
    const cleared = !conversation.some((m) => m.role === "assistant");
    if (hasHooks(lastConfig, "SessionEnd")) {
      const reason = cleared ? "clear" : "other";
      await runHooks(lastConfig, "SessionEnd", [reason], { reason }, emit).catch(() => undefined);
    }
    memoryFor(config).afterClear = cleared;
  }

  /** The run a command names, or undefined (logged) when that run has ended. */
  function runNamed(cmd: { type: string; runId: number }): ActiveRun | undefined {
    if (active?.runId === cmd.runId) return active;
    log(`${cmd.type} for run ${cmd.runId} dropped: ${active ? `run ${active.runId} is going` : "no run is going"}`);
    return undefined;
  }

  function begin(runId: number, mode?: PermissionMode): ActiveRun {
    active?.controller.abort();
    active = { runId, controller: new AbortController(), mode, pending: new Map(), steers: [] };
    return active;
  }

  function end(run: ActiveRun): void {
    if (active === run) active = undefined;
    run.pending.clear();
  }

  function queueMcp(work: () => Promise<void>): void {
    mcpWork = mcpWork.then(work).catch((err: Error) => {
      emit({ type: "notice", level: "warn", text: `MCP: ${err.message}` });
    });
  }

  /** The manager, created at the first mcp-sync that names a server: the SDK loads only then. */
  function mcpManager(cwd: string): Promise<McpManager> {
    mcpLoading ??= (deps.createMcp ?? loadMcpManager)(cwd, (servers) => {
      emit({ type: "mcp-state", servers });
      // A server that dies mid-session is reported at once; starts are reported per sync.
      if (syncing === 0) announce(servers);
    }).then((m) => (mcp = m));
    return mcpLoading;
  }

  /** Notices for servers that failed, and one line naming those that came up. */
  function announce(servers: McpServerView[]): void {
    const up: string[] = [];
    for (const s of servers) {
      const key = s.state === "failed" ? `failed:${s.error ?? ""}` : s.state;
      if (announced.get(s.name) === key || s.state === "starting") continue;
      announced.set(s.name, key);
      if (s.state === "failed") {
        emit({
          type: "notice",
          level: "warn",
          text: `MCP server ${s.name} failed to start: ${s.error ?? "unknown error"}`,
        });
      } else if (s.state === "running") {
        up.push(`${s.name} (${s.tools.length} tools)`);
      }
    }
    if (up.length) emit({ type: "notice", level: "info", text: `MCP: ${up.join(", ")}` });
  }

  async function mcpSync(cmd: Command<"mcp-sync">): Promise<void> {
    if (!mcp && !mcpLoading && Object.keys(cmd.servers).length === 0) return;
    const manager = await mcpManager(cmd.cwd);
    syncing++;
    try {
      await manager.sync(cmd.servers);
    } finally {
      syncing--;
    }
    announce(manager.views());
  }

  async function mcpRestart(name: string): Promise<void> {
    const manager = mcp;
    announced.delete(name);
    syncing++;
    const found = await manager?.restart(name).finally(() => syncing--);
    if (!found) emit({ type: "notice", level: "warn", text: `No MCP server named ${name}. /mcp lists them.` });
    else announce(manager!.views());
  }

  /** A user turn from a server prompt and @server:uri mentions, each resource attached below the text. */
  async function mcpExpand(req: McpExpandRequest): Promise<void> {
    try {
      await mcpWork;
      const manager = mcp;
      if (!manager) throw new Error("no MCP servers are configured");
      let content = req.text;
      const images: ImageAttachment[] = [...(req.images ?? [])];
      if (req.prompt) {
        const rendered = await manager.renderPrompt(req.prompt.server, req.prompt.name, req.prompt.args);
        content = content ? `${rendered.text}\n\n${content}` : rendered.text;
        images.push(...rendered.images);
      }
      for (const r of req.resources) {
        const read = await manager.readResource(r.server, r.uri);
        content += `\n\n<resource server="${r.server}" uri="${r.uri}">\n${read.text}\n</resource>`;
        images.push(...read.images);
      }
      emit({ type: "mcp-expanded", typed: req.typed, content, ...(images.length ? { images } : {}) });
    } catch (err) {
      emit({ type: "mcp-expand-failed", typed: req.typed, error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** The run's tools, built again when an MCP server's tool list changed (for the next step). */
  function runTools(config: RunConfig): () => ToolDef[] {
    const agentTypes = loadAgentTypes({ cwd: config.cwd, configDir: config.configDir }).types;
    let generation = -1;
    let tools: ToolDef[] = [];
    return () => {
      const now = mcp?.generation ?? 0;
      if (now !== generation) {
        generation = now;
        tools = deps.toolsFor(config, mcp, agentTypes);
      }
      return tools;
    };
  }

  async function run(cmd: Command<"run">): Promise<void> {
    const emit = emitFor(cmd.runId);
    const config: RunConfig = cmd.config;
    await endReplacedSession(config, cmd.conversation, emit);
    lastConfig = config;
    const slot = begin(cmd.runId, config.permissionMode);
    const signal = slot.controller.signal;
    // Files a tool changes are saved before the change, per user turn, for /undo.
    let checkpoints = config.checkpointDir ? deps.checkpoints(config.checkpointDir) : undefined;
    let turn = lastUserIndex(cmd.conversation);
    const turnMessage = cmd.conversation[turn];
    try {
      checkpoints?.beginTurn(turn);
    } catch (err) {
      // A full or read-only disk: the run goes on (the user is told), only /undo loses this turn.
      const code = (err as NodeJS.ErrnoException).code;
      emit({
        type: "notice",
        level: "warn",
        text: `Could not save the /undo checkpoint of this turn (${code ?? (err as Error).message}): /undo will not restore the files it changes.`,
      });
      checkpoints = undefined;
    }
    const runEmit = (e: RunEvent) => {
      if (e.type === "tool-start" && e.name === "run_shell_command") {
        try {
          checkpoints?.markShell();
        } catch {
          // the checkpoint stays without the shell mark; the disk error was reported at its start
        }
      }
      // Compaction renumbers the messages: the turn's checkpoint follows its user message.
      if (e.type === "compacted" && checkpoints) {
        const from = turn;
        const to = turnAfterCompaction(turnMessage, e.conversation);
        if (to !== undefined) turn = to;
        checkpoints.rebase(from, to).catch(() => {});
      }
      emit(e);
    };
    try {
      const result = await runAgent(cmd.conversation, config, {
        provider: providers.get(config),
        tools: await mcpWork.then(() => runTools(config)),
        emit: runEmit,
        beforeWrite: checkpoints ? (abs) => checkpoints.recordBefore(abs) : undefined,
        permissionMode: () => slot.mode ?? config.permissionMode,
        signal,
        memory: memoryFor(config),
        prefetched,
        takeSteers: () =>
          slot.steers.splice(0).map(({ id, message }) => {
            emit({ type: "steered", id });
            return message;
          }),
        ...(deps.client ? { client: deps.client } : {}),
        askUser: (req) =>
          new Promise<PermissionAnswer>((resolve) => {
            if (signal.aborted) return resolve({ decision: "deny" });
            slot.pending.set(req.id, resolve);
            signal.addEventListener("abort", () => resolve({ decision: "deny" }), { once: true });
            emit({
              type: "permission-request",
              id: req.id,
              ...(req.callId ? { callId: req.callId } : {}),
              tool: req.tool,
              args: req.args,
              preview: req.preview,
              allowKey: req.allowKey,
              ...(req.why ? { why: req.why } : {}),
              ...(req.alwaysOptions ? { alwaysOptions: req.alwaysOptions } : {}),
            });
            if (hasHooks(config, "Notification"))
              runNotificationHooks(
                config,
                "permission_prompt",
                `agent0 needs your permission to use ${claudeToolName(req.tool)}`,
                emit,
                signal,
              ).catch((err: Error) => log(`Notification hook: ${err.message}`));
          }),
      });
      await checkpoints?.endTurn().catch(() => {});
      emit({ type: "done", reason: result.reason });
    } catch (err) {
      emit({ type: "error", message: `Internal error: ${(err as Error).stack ?? String(err)}` });
      emit({ type: "done", reason: "error" });
    } finally {
      end(slot);
      // A full collection takes tens of ms; a process about to exit is only slowed by it.
      if (!cmd.last) deps.idle?.();
    }
  }

  async function compact(cmd: Command<"compact">): Promise<void> {
    const emit = emitFor(cmd.runId);
    const slot = begin(cmd.runId);
    const signal = slot.controller.signal;
    try {
      const provider = providers.get(cmd.config);
      // The same request the next run sends (system message and tool schemas), so /compact's
      // figures are the status line's and /context's.
      const specs = toolSpecs(sentTools(cmd.config, runTools(cmd.config)()));
      const out = await compactIfNeeded(provider, cmd.conversation, cmd.config, signal, emit, true, {
        system: systemMessage(cmd.config, specs),
        tools: cmd.config.toolProtocol === "json" ? [] : specs,
      });
      if (!out) emit({ type: "notice", level: "info", text: "Nothing to compact yet." });
      if (out && cmd.config.checkpointDir) {
        const t = lastUserIndex(cmd.conversation);
        await deps
          .checkpoints(cmd.config.checkpointDir)
          .rebase(t, turnAfterCompaction(cmd.conversation[t], out))
          .catch(() => {});
      }
    } catch (err) {
      emit({ type: "error", message: `Internal error: ${(err as Error).stack ?? String(err)}` });
    } finally {
      emit({ type: "done", reason: signal.aborted ? "interrupted" : "complete" });
      end(slot);
    }
  }

  async function probe(config: RunConfig): Promise<void> {
    const provider = providers.get(config);
    const info = await ensureModelInfo(provider, config, new AbortController().signal, emit, prefetched);
    if (!info.ok) {
      const said = await withLocalServers(config, info);
      emit({ type: "error", message: said.message, hint: said.hint, ...(said.offer && { offer: said.offer }) });
    } else if (provider.warm) {
      // Load the model while the user types: a cold load takes seconds to minutes on a local machine.
      const { model, numCtx, keepAlive } = info.config;
      emit({ type: "model-load", state: "loading" });
      try {
        await provider.warm(model, numCtx, keepAlive);
        emit({ type: "model-load", state: "ready" });
      } catch {
        // The first request will say what is wrong, with the error the user can act on.
        emit({ type: "model-load", state: "failed" });
      }
    }
    if (info.ok) await warnIfOllamaBehindOpenAI(info.config, emit);
    // Start-up's garbage (compiling the code, the model info) goes now, unless a run has begun
    // meanwhile: it collects when it ends.
    if (!active) deps.idle?.();
  }

  function close(reason: "prompt_input_exit" | "other" = "other"): Promise<void> {
    closing ??= (async () => {
      active?.controller.abort();
      // Claude Code's SessionEnd hook: the session is ending (agent0 quits).
      if (lastConfig && hasHooks(lastConfig, "SessionEnd"))
        await runHooks(lastConfig, "SessionEnd", [reason], { reason }, emit).catch(() => undefined);
      jobs.killAll();
      // MCP servers are child processes: stop them before the session goes (close() also stops
      // servers that are still starting).
      const manager = mcp ?? (await mcpLoading?.catch(() => undefined));
      await manager?.close().catch(() => {});
      await providers.release().catch(() => {});
    })();
    return closing;
  }

  /** A command's work ends in an event, never in an unhandled rejection. */
  const background = (work: Promise<void>, what: string): void => {
    work.catch((err: Error) =>
      emit({ type: "error", message: `Internal error (${what}): ${err.stack ?? err.message}` }),
    );
  };

  function handle(cmd: WorkerCommand): void {
    switch (cmd.type) {
      case "run":
        background(run(cmd), "run");
        break;
      case "compact":
        background(compact(cmd), "compact");
        break;
      case "cancel":
        runNamed(cmd)?.controller.abort();
        break;
      case "steer":
        runNamed(cmd)?.steers.push({ id: cmd.id, message: cmd.message });
        break;
      case "permission-reply": {
        const slot = runNamed(cmd);
        const resolve = slot?.pending.get(cmd.id);
        if (slot && !resolve) log(`permission-reply ${cmd.id} of run ${cmd.runId} dropped: nothing asked it`);
        slot?.pending.delete(cmd.id);
        resolve?.({
          decision: cmd.decision,
          ...(cmd.reason ? { reason: cmd.reason } : {}),
          ...(cmd.always ? { always: cmd.always } : {}),
        });
        break;
      }
      case "background-shell":
        // Ctrl+B: the shell command running in front of this run goes on as a job.
        if (runNamed(cmd) && !jobs.backgroundForeground()) log("background-shell: no shell command is running");
        break;
      case "notification":
        background(
          runNotificationHooks(cmd.config, cmd.notificationType, cmd.message, emit).then(() => undefined),
          "notification",
        );
        break;
      case "job-kill":
        background(
          jobs.kill(cmd.id).then((job) => {
            if (!job)
              emit({ type: "notice", level: "warn", text: `No background command ${cmd.id}. /jobs lists them.` });
          }),
          "job-kill",
        );
        break;
      case "set-mode": {
        const slot = runNamed(cmd);
        if (slot && slot.mode !== undefined) slot.mode = cmd.mode;
        break;
      }
      case "probe":
        background(probe(cmd.config), "probe");
        break;
      case "prefetch-model-info":
        prefetchModelInfo(providers.get(cmd.config), cmd.config, prefetched);
        break;
      case "mcp-sync":
        queueMcp(() => mcpSync(cmd));
        break;
      case "mcp-restart":
        queueMcp(() => mcpRestart(cmd.name));
        break;
      case "mcp-expand":
        background(mcpExpand(cmd.request), "mcp-expand");
        break;
      case "shutdown":
        background(
          close(cmd.reason).then(() => deps.stopped?.()),
          "shutdown",
        );
        break;
      default:
        assertNever(cmd);
    }
  }

  return { handle, close };
}

function lastUserIndex(conversation: { role: string }[]): number {
  for (let i = conversation.length - 1; i >= 0; i--) if (conversation[i]!.role === "user") return i;
  return 0;
}
