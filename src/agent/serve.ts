// The agent brain: answers WorkerCommands with AgentEvents over a port. The TUI runs it in a
// worker thread (worker.ts), so that a busy model stream or a slow tool never delays a key press;
// a headless run serves it on its own thread (cli/agent-start.ts), which saves a second isolate.
import v8 from "node:v8";
import vm from "node:vm";
import type { AgentEvent, RunEvent } from "../protocol/agent-event.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { WorkerCommand } from "../protocol/worker-command.js";
import { assertNever } from "../protocol/assert-never.js";
import { runAgent } from "./loop.js";
import { createDeltaBatcher } from "./delta-batcher.js";
import type { PermissionAnswer } from "./approval.js";
import { createProvider } from "../providers/index.js";
import { toolsFor } from "../tools/catalog.js";
import { ensureModelInfo, prefetchModelInfo } from "./model-info.js";
import { compactIfNeeded } from "./compaction/run.js";
import type { McpManager } from "./mcp/servers.js";
import type { McpExpandRequest, McpServerView } from "../protocol/mcp-state.js";
import type { ImageAttachment } from "../protocol/conversation.js";
import type { ToolDef } from "../tools/types.js";
import { loadAgentTypes } from "./agent-types.js";
import { Checkpoints, turnAfterCompaction } from "../session/checkpoints.js";

/**
 * A full collection once a run (or the TUI's start-up probe) has ended. V8 grows an idle worker's
 * heap instead of collecting it, and the worker's heap has no memory reducer (ui/runtime/heap.ts),
 * so without this a long session's garbage would pile up as resident memory (bench: longSession).
 * The worker is idle then, so the few milliseconds are not felt.
 */
function collectGarbage(): void {
  gc ??= (() => {
    try {
      v8.setFlagsFromString("--expose-gc");
      return vm.runInNewContext("gc") as () => void;
    } catch {
      return () => {};
    }
  })();
  gc();
}
/** Made at the first collection: a new context costs a few ms that a one-shot run never needs. */
let gc: (() => void) | undefined;

/** Where commands come from and events go: a worker's parentPort, or one end of a MessageChannel. */
export interface AgentPort {
  postMessage(e: AgentEvent): void;
  on(event: "message", listener: (cmd: WorkerCommand) => void): unknown;
}

let port: AgentPort | undefined;
/** Called when a shutdown has stopped everything (the worker exits the thread). */
let stopped: () => void = () => {};

const post = createDeltaBatcher((e) => port?.postMessage(e));
/** Posts the events of one run (null: of no run), each stamped with that run's id. */
const emitFor =
  (runId: number | null) =>
  (e: RunEvent): void =>
    post({ ...e, runId } satisfies AgentEvent);
const emit = emitFor(null);
const pending = new Map<string, (a: PermissionAnswer) => void>();
let controller: AbortController | undefined;
/** The permission mode of the run going on, as the user last set it (set-mode). */
let liveMode: PermissionMode | undefined;
let mcp: McpManager | undefined;
let mcpLoading: Promise<McpManager> | undefined;
/** What the user was last told of each server, so a state is announced once. */
const announced = new Map<string, string>();
let syncing = 0;
/** Syncs and restarts, one after another; a run waits for them (the servers it may use). */
let mcpWork: Promise<void> = Promise.resolve();

function queueMcp(work: () => Promise<void>): void {
  mcpWork = mcpWork.then(work).catch((err: Error) => {
    emit({ type: "notice", level: "warn", text: `MCP: ${err.message}` });
  });
}

/** The manager, created at the first mcp-sync that names a server: the SDK loads only then. */
function mcpManager(cwd: string): Promise<McpManager> {
  mcpLoading ??= import("./mcp/servers.js").then(({ McpManager }) => {
    mcp = new McpManager(
      {},
      {
        cwd,
        onChange: (servers) => {
          emit({ type: "mcp-state", servers });
          // A server that dies mid-session is reported at once; starts are reported per sync.
          if (syncing === 0) announce(servers);
        },
      },
    );
    return mcp;
  });
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

async function mcpSync(cmd: Extract<WorkerCommand, { type: "mcp-sync" }>): Promise<void> {
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
    const images: ImageAttachment[] = [];
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
      tools = toolsFor(config, mcp, agentTypes);
    }
    return tools;
  };
}

/** Test hook for worker-death drills: AGENT0_FAULT=worker-exit-on:<marker> exits on a prompt holding <marker>. */
function faultDrill(cmd: Extract<WorkerCommand, { type: "run" }>) {
  const fault = process.env.AGENT0_FAULT;
  if (!fault?.startsWith("worker-exit-on:")) return;
  const last = [...cmd.conversation].reverse().find((m) => m.role === "user");
  if (last?.content.includes(fault.slice("worker-exit-on:".length))) process.exit(1);
}

async function run(cmd: Extract<WorkerCommand, { type: "run" }>) {
  faultDrill(cmd);
  const emit = emitFor(cmd.runId);
  controller?.abort();
  const ctl = new AbortController();
  controller = ctl;
  const config: RunConfig = cmd.config;
  liveMode = config.permissionMode;
  // Files a tool changes are saved before the change, per user turn, for /undo.
  let checkpoints = config.checkpointDir ? new Checkpoints(config.checkpointDir) : undefined;
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
      void checkpoints.rebase(from, to).catch(() => {});
    }
    emit(e);
  };
  try {
    const provider = createProvider(config);
    const result = await runAgent(cmd.conversation, config, {
      provider,
      tools: await mcpWork.then(() => runTools(config)),
      emit: runEmit,
      beforeWrite: checkpoints ? (abs) => checkpoints.recordBefore(abs) : undefined,
      permissionMode: () => liveMode ?? config.permissionMode,
      signal: ctl.signal,
      askUser: (req) =>
        new Promise<PermissionAnswer>((resolve) => {
          if (ctl.signal.aborted) return resolve({ decision: "deny" });
          pending.set(req.id, resolve);
          ctl.signal.addEventListener("abort", () => resolve({ decision: "deny" }), { once: true });
          emit({
            type: "permission-request",
            id: req.id,
            tool: req.tool,
            args: req.args,
            preview: req.preview,
            allowKey: req.allowKey,
            ...(req.why ? { why: req.why } : {}),
          });
        }),
    });
    await checkpoints?.endTurn().catch(() => {});
    emit({ type: "done", reason: result.reason });
  } catch (err) {
    emit({ type: "error", message: `Internal error: ${(err as Error).stack ?? String(err)}` });
    emit({ type: "done", reason: "error" });
  } finally {
    if (controller === ctl) {
      controller = undefined;
      liveMode = undefined;
    }
    pending.clear();
    // A full collection takes tens of ms; a process about to exit is only slowed by it.
    if (!cmd.last) setImmediate(collectGarbage);
  }
}

function lastUserIndex(conversation: { role: string }[]): number {
  for (let i = conversation.length - 1; i >= 0; i--) if (conversation[i]!.role === "user") return i;
  return 0;
}

async function probe(config: RunConfig) {
  await probeModel(config);
  // Start-up's garbage (compiling the worker's code, the model info) goes now, unless a run has
  // begun meanwhile: it collects when it ends.
  if (!controller) setImmediate(collectGarbage);
}

async function probeModel(config: RunConfig) {
  const ctl = new AbortController();
  const provider = createProvider(config);
  const info = await ensureModelInfo(provider, config, ctl.signal, emit);
  if (!info.ok) {
    emit({ type: "error", message: info.message, hint: info.hint });
    return;
  }
  const { model, numCtx, keepAlive } = info.config;
  // Load the model while the user types: a cold load takes seconds to minutes on a local machine.
  if (!provider.warm) return;
  emit({ type: "model-load", state: "loading" });
  try {
    await provider.warm(model, numCtx, keepAlive);
    emit({ type: "model-load", state: "ready" });
  } catch {
    // The first request will say what is wrong, with the error the user can act on.
    emit({ type: "model-load", state: "failed" });
  }
}

async function shutdown() {
  controller?.abort();
  // MCP servers are child processes of this process: stop them before the worker goes
  // (close() also stops servers that are still starting).
  const manager = mcp ?? (await mcpLoading?.catch(() => undefined));
  await manager?.close().catch(() => {});
  stopped();
}

async function compact(cmd: Extract<WorkerCommand, { type: "compact" }>) {
  const emit = emitFor(cmd.runId);
  const ctl = new AbortController();
  controller = ctl;
  try {
    const out = await compactIfNeeded(createProvider(cmd.config), cmd.conversation, cmd.config, ctl.signal, emit, true);
    if (!out) emit({ type: "notice", level: "info", text: "Nothing to compact yet." });
    if (out && cmd.config.checkpointDir) {
      const t = lastUserIndex(cmd.conversation);
      await new Checkpoints(cmd.config.checkpointDir)
        .rebase(t, turnAfterCompaction(cmd.conversation[t], out))
        .catch(() => {});
    }
  } finally {
    emit({ type: "done", reason: ctl.signal.aborted ? "interrupted" : "complete" });
    if (controller === ctl) controller = undefined;
  }
}

/** Serves the agent on `p`, once per thread (the state above is the thread's). */
export function serveAgent(p: AgentPort, onStopped: () => void): void {
  if (port) throw new Error("the agent is already served on this thread");
  port = p;
  stopped = onStopped;
  p.on("message", handle);
}

function handle(cmd: WorkerCommand): void {
  switch (cmd.type) {
    case "run":
      void run(cmd);
      break;
    case "cancel":
      controller?.abort();
      break;
    case "permission-reply": {
      const resolve = pending.get(cmd.id);
      pending.delete(cmd.id);
      resolve?.({ decision: cmd.decision, ...(cmd.reason ? { reason: cmd.reason } : {}) });
      break;
    }
    case "probe":
      void probe(cmd.config);
      break;
    case "prefetch-model-info":
      prefetchModelInfo(createProvider(cmd.config), cmd.config);
      break;
    case "compact":
      void compact(cmd);
      break;
    case "mcp-sync":
      queueMcp(() => mcpSync(cmd));
      break;
    case "mcp-restart":
      queueMcp(() => mcpRestart(cmd.name));
      break;
    case "mcp-expand":
      void mcpExpand(cmd.request);
      break;
    case "set-mode":
      if (liveMode !== undefined) liveMode = cmd.mode;
      break;
    case "shutdown":
      void shutdown();
      break;
    default:
      assertNever(cmd);
  }
}
