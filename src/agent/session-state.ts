// What one agent session keeps between commands, as one value (session.ts creates it, its
// commands read and change it): the run going on, the last run's config, the background jobs,
// the tools' memory, the model lookups started early, the MCP servers.
import type { AgentEvent, RunEvent } from "../protocol/agent-event.js";
import type { ConversationMessage } from "../protocol/conversation.js";
import type { McpServerView } from "../protocol/mcp-state.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { Provider } from "../providers/types.js";
import type { ClientIo, ToolDef } from "../tools/types.js";
import { createSessionMemory, type SessionMemory } from "../tools/session-memory.js";
import { createBackgroundJobs } from "../tools/shell/jobs.js";
import type { BackgroundJobs } from "../tools/shell/job-types.js";
import type { Checkpoints } from "../session/checkpoints.js";
import type { AgentType } from "../context/agent-types.js";
import { createDeltaBatcher } from "./delta-batcher.js";
import type { PermissionAnswer } from "./approval.js";
import type { Prefetched } from "./model-info.js";
import type { McpManager } from "./mcp/servers.js";
import { createSessionServers, type SessionServers } from "./mcp/session-servers.js";
import { hasHooks, runHooks } from "./hooks/hooks.js";

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

/** The run (or compaction) going on: commands aimed at it name its id. */
export interface ActiveRun {
  runId: number;
  controller: AbortController;
  /** The permission mode as the user last set it (set-mode); compactions have none. */
  mode?: PermissionMode;
  /** Approvals the user has not answered yet, by request id. */
  pending: Map<string, (a: PermissionAnswer) => void>;
  /** Messages the user typed during the run (steer), until the loop takes them at a step boundary. */
  steers: { id: number; message: ConversationMessage }[];
}

export interface SessionState {
  readonly deps: AgentSessionDeps;
  /** Posts the events of one run (null: of no run), each stamped with that run's id. */
  readonly emitFor: (runId: number | null) => (e: RunEvent) => void;
  /** Events of no run. */
  readonly emit: (e: RunEvent) => void;
  readonly log: (text: string) => void;
  active: ActiveRun | undefined;
  /** The last run's config: its hooks run at SessionEnd. */
  lastConfig: RunConfig | undefined;
  /** Background commands outlive runs and /new; they end with the session. */
  readonly jobs: BackgroundJobs;
  /** The tools' memory of this conversation (memoryFor). */
  memory: SessionMemory;
  readonly prefetched: Prefetched;
  readonly servers: SessionServers;
  closing: Promise<void> | undefined;
}

export function createSessionState(deps: AgentSessionDeps): SessionState {
  const post = createDeltaBatcher(deps.post);
  const emitFor =
    (runId: number | null) =>
    (e: RunEvent): void =>
      post({ ...e, runId } satisfies AgentEvent);
  const emit = emitFor(null);
  const jobs = createBackgroundJobs((list) => emit({ type: "jobs", jobs: list }));
  return {
    deps,
    emitFor,
    emit,
    log: (text) => emit({ type: "log", text }),
    active: undefined,
    lastConfig: undefined,
    jobs,
    memory: createSessionMemory(undefined, jobs),
    prefetched: new Map(),
    servers: createSessionServers(emit, deps.createMcp),
    closing: undefined,
  };
}

/** The tools' memory of this conversation: /new (a new session id) starts a fresh one. */
export function memoryFor(s: SessionState, config: RunConfig): SessionMemory {
  if (s.memory.sessionId !== config.sessionId) s.memory = createSessionMemory(config.sessionId, s.jobs);
  return s.memory;
}

/**
 * A run for another session id after one that had started: /clear or /new ended it (Claude
 * Code's SessionEnd "clear", then SessionStart "clear"), or /resume moved to another ("other").
 */
export async function endReplacedSession(
  s: SessionState,
  config: RunConfig,
  conversation: readonly ConversationMessage[],
  emit: (e: RunEvent) => void,
): Promise<void> {
  const last = s.lastConfig;
  if (!s.memory.sessionStarted || s.memory.sessionId === config.sessionId || !last) return;
  // A new conversation (nothing answered yet) follows a /clear or /new; one with answers, a /resume.
  const cleared = !conversation.some((m) => m.role === "assistant");
  if (hasHooks(last, "SessionEnd")) {
    const reason = cleared ? "clear" : "other";
    await runHooks(last, "SessionEnd", [reason], { reason }, emit).catch(() => undefined);
  }
  memoryFor(s, config).afterClear = cleared;
}

/** The run a command names, or undefined (logged) when that run has ended. */
export function runNamed(s: SessionState, cmd: { type: string; runId: number }): ActiveRun | undefined {
  if (s.active?.runId === cmd.runId) return s.active;
  s.log(`${cmd.type} for run ${cmd.runId} dropped: ${s.active ? `run ${s.active.runId} is going` : "no run is going"}`);
  return undefined;
}

export function beginRun(s: SessionState, runId: number, mode?: PermissionMode): ActiveRun {
  s.active?.controller.abort();
  s.active = { runId, controller: new AbortController(), mode, pending: new Map(), steers: [] };
  return s.active;
}

export function endRun(s: SessionState, run: ActiveRun): void {
  if (s.active === run) s.active = undefined;
  run.pending.clear();
}
