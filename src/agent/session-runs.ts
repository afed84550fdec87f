// The commands of an agent session that do a run's work (session.ts dispatches them): a run of
// the loop, a /compact, and the start-up probe of the model. Each reads and changes the
// session's state (session-state.ts) and ends in events, never in a thrown error.
import type { RunEvent } from "../protocol/agent-event.js";
import type { ConversationMessage } from "../protocol/conversation.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { WorkerCommand } from "../protocol/worker-command.js";
import type { ToolDef } from "../tools/types.js";
import { toolSpecs } from "../tools/runner.js";
import { turnAfterCompaction } from "../session/checkpoints.js";
import { loadAgentTypes } from "../context/agent-types.js";
import { runAgent } from "./loop.js";
import { claudeToolName, hasHooks, runNotificationHooks } from "./hooks/hooks.js";
import type { AskUser, PermissionAnswer } from "./approval.js";
import { ensureModelInfo } from "./model-info.js";
import { warnIfOllamaBehindOpenAI, withLocalServers } from "./local-servers.js";
import { compactIfNeeded } from "./compaction/run.js";
import { sentTools, systemMessage, wireToolSpecs } from "./request.js";
import {
  beginRun,
  endReplacedSession,
  endRun,
  memoryFor,
  type ActiveRun,
  type AgentSessionDeps,
  type SessionState,
} from "./session-state.js";

type Command<T extends WorkerCommand["type"]> = Extract<WorkerCommand, { type: T }>;

export async function run(s: SessionState, cmd: Command<"run">): Promise<void> {
  const emit = s.emitFor(cmd.runId);
  const config: RunConfig = cmd.config;
  await endReplacedSession(s, config, cmd.conversation, emit);
  s.lastConfig = config;
  const slot = beginRun(s, cmd.runId, config.permissionMode);
  const turn = turnCheckpoints(s.deps, config, cmd.conversation, emit);
  try {
    const result = await runAgent(cmd.conversation, config, {
      provider: s.providers.get(config),
      tools: await s.servers.settled().then(() => runTools(s, config)),
      emit: turn.emit,
      beforeWrite: turn.beforeWrite,
      permissionMode: () => slot.mode ?? config.permissionMode,
      signal: slot.controller.signal,
      memory: memoryFor(s, config),
      prefetched: s.prefetched,
      takeSteers: () =>
        slot.steers.splice(0).map(({ id, message }) => {
          emit({ type: "steered", id });
          return message;
        }),
      ...(s.deps.client ? { client: s.deps.client } : {}),
      askUser: askUserIn(s, slot, config, emit),
    });
    await turn.end();
    emit({ type: "done", reason: result.reason });
  } catch (err) {
    emit({ type: "error", message: `Internal error: ${(err as Error).stack ?? String(err)}` });
    emit({ type: "done", reason: "error" });
  } finally {
    endRun(s, slot);
    // A full collection takes tens of ms; a process about to exit is only slowed by it.
    if (!cmd.last) s.deps.idle?.();
  }
}

export async function compact(s: SessionState, cmd: Command<"compact">): Promise<void> {
  const emit = s.emitFor(cmd.runId);
  const slot = beginRun(s, cmd.runId);
  const signal = slot.controller.signal;
  try {
    const provider = s.providers.get(cmd.config);
    // The same request the next run sends (system message and tool schemas), so /compact's
    // figures are the status line's and /context's.
    const specs = toolSpecs(sentTools(cmd.config, runTools(s, cmd.config)()));
    const out = await compactIfNeeded(provider, cmd.conversation, cmd.config, signal, emit, {
      trigger: "manual",
      force: true,
      overhead: { system: systemMessage(cmd.config, specs), tools: wireToolSpecs(cmd.config, specs) },
    });
    if (!out) emit({ type: "notice", level: "info", text: "Nothing to compact yet." });
    if (out && cmd.config.checkpointDir) {
      const t = lastUserIndex(cmd.conversation);
      await s.deps
        .checkpoints(cmd.config.checkpointDir)
        .rebase(t, turnAfterCompaction(cmd.conversation[t], out))
        .catch(() => {});
    }
  } catch (err) {
    emit({ type: "error", message: `Internal error: ${(err as Error).stack ?? String(err)}` });
  } finally {
    emit({ type: "done", reason: signal.aborted ? "interrupted" : "complete" });
    endRun(s, slot);
  }
}

export async function probe(s: SessionState, config: RunConfig): Promise<void> {
  const { emit } = s;
  const provider = s.providers.get(config);
  const info = await ensureModelInfo(provider, config, new AbortController().signal, emit, s.prefetched);
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
  if (!s.active) s.deps.idle?.();
}

/** The run's tools, built again when an MCP server's tool list changed (for the next step). */
function runTools(s: SessionState, config: RunConfig): () => ToolDef[] {
  const agentTypes = loadAgentTypes({ cwd: config.cwd, configDir: config.configDir }).types;
  let generation = -1;
  let tools: ToolDef[] = [];
  return () => {
    const mcp = s.servers.manager;
    const now = mcp?.generation ?? 0;
    if (now !== generation) {
      generation = now;
      tools = s.deps.toolsFor(config, mcp, agentTypes);
    }
    return tools;
  };
}

/** The user's say on a call: asked through a `permission-request` the run's reply answers. */
function askUserIn(s: SessionState, slot: ActiveRun, config: RunConfig, emit: (e: RunEvent) => void): AskUser {
  const signal = slot.controller.signal;
  return (req) =>
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
        ).catch((err: Error) => s.log(`Notification hook: ${err.message}`));
    });
}

/**
 * The /undo checkpoint of a run's turn: files a tool changes are saved before the change, and the
 * checkpoint follows its user message when compaction renumbers the messages. A full or read-only
 * disk: the run goes on (the user is told), only /undo loses this turn.
 */
function turnCheckpoints(
  deps: Pick<AgentSessionDeps, "checkpoints">,
  config: RunConfig,
  conversation: ConversationMessage[],
  emit: (e: RunEvent) => void,
): { emit: (e: RunEvent) => void; beforeWrite?: (abs: string) => Promise<void>; end(): Promise<void> } {
  let checkpoints = config.checkpointDir ? deps.checkpoints(config.checkpointDir) : undefined;
  let turn = lastUserIndex(conversation);
  const turnMessage = conversation[turn];
  try {
    checkpoints?.beginTurn(turn);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    emit({
      type: "notice",
      level: "warn",
      text: `Could not save the /undo checkpoint of this turn (${code ?? (err as Error).message}): /undo will not restore the files it changes.`,
    });
    checkpoints = undefined;
  }
  const kept = checkpoints;
  return {
    emit: (e) => {
      if (e.type === "tool-start" && e.name === "run_shell_command") {
        try {
          kept?.markShell();
        } catch {
          // the checkpoint stays without the shell mark; the disk error was reported at its start
        }
      }
      if (e.type === "compacted" && kept) {
        const from = turn;
        const to = turnAfterCompaction(turnMessage, e.conversation);
        if (to !== undefined) turn = to;
        kept.rebase(from, to).catch(() => {});
      }
      emit(e);
    },
    ...(kept ? { beforeWrite: (abs: string) => kept.recordBefore(abs) } : {}),
    end: () => kept?.endTurn().catch(() => {}) ?? Promise.resolve(),
  };
}

function lastUserIndex(conversation: { role: string }[]): number {
  for (let i = conversation.length - 1; i >= 0; i--) if (conversation[i]!.role === "user") return i;
  return 0;
}
