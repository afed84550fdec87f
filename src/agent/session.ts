// One agent session: it answers WorkerCommands with AgentEvents, and owns everything the agent
// keeps between commands (session-state.ts) — the run going on and its pending approvals, the
// permission mode the user last set, the MCP servers, what the tools remember. Nothing of it lives
// in a module, so a thread can hold several sessions (serve.ts is the adapter from a port to one;
// an editor's server holds many), and a test can drive one with a fake provider.
import type { WorkerCommand } from "../protocol/worker-command.js";
import { assertNever } from "../protocol/assert-never.js";
import { hasHooks, runHooks, runNotificationHooks } from "./hooks/hooks.js";
import { prefetchModelInfo } from "./model-info.js";
import { createSessionState, runNamed, type AgentSessionDeps, type SessionState } from "./session-state.js";
import { compact, probe, run } from "./session-runs.js";

export type { AgentSessionDeps } from "./session-state.js";

export interface AgentSession {
  handle(command: WorkerCommand): void;
  /** Stops the run going on and the MCP servers. */
  close(): Promise<void>;
}

export function createAgentSession(deps: AgentSessionDeps): AgentSession {
  const s = createSessionState(deps);
  return { handle: (cmd) => handle(s, cmd), close: () => close(s) };
}

function close(s: SessionState, reason: "prompt_input_exit" | "other" = "other"): Promise<void> {
  s.closing ??= (async () => {
    s.active?.controller.abort();
    // Claude Code's SessionEnd hook: the session is ending (agent0 quits).
    const last = s.lastConfig;
    if (last && hasHooks(last, "SessionEnd"))
      await runHooks(last, "SessionEnd", [reason], { reason }, s.emit).catch(() => undefined);
    s.jobs.killAll();
    // MCP servers are child processes: stop them before the session goes (close() also stops
    // servers that are still starting).
    await s.servers.close();
  })();
  return s.closing;
}

/** A command's work ends in an event, never in an unhandled rejection. */
function inBackground(s: SessionState, work: Promise<void>, what: string): void {
  work.catch((err: Error) =>
    s.emit({ type: "error", message: `Internal error (${what}): ${err.stack ?? err.message}` }),
  );
}

function handle(s: SessionState, cmd: WorkerCommand): void {
  const { emit, log, jobs, servers } = s;
  const background = (work: Promise<void>, what: string) => inBackground(s, work, what);
  switch (cmd.type) {
    case "run":
      background(run(s, cmd), "run");
      break;
    case "compact":
      background(compact(s, cmd), "compact");
      break;
    case "cancel":
      runNamed(s, cmd)?.controller.abort();
      break;
    case "steer":
      runNamed(s, cmd)?.steers.push({ id: cmd.id, message: cmd.message });
      break;
    case "permission-reply": {
      const slot = runNamed(s, cmd);
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
      if (runNamed(s, cmd) && !jobs.backgroundForeground()) log("background-shell: no shell command is running");
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
          if (!job) emit({ type: "notice", level: "warn", text: `No background command ${cmd.id}. /jobs lists them.` });
        }),
        "job-kill",
      );
      break;
    case "set-mode": {
      const slot = runNamed(s, cmd);
      if (slot && slot.mode !== undefined) slot.mode = cmd.mode;
      break;
    }
    case "probe":
      background(probe(s, cmd.config), "probe");
      break;
    case "prefetch-model-info":
      prefetchModelInfo(s.deps.createProvider(cmd.config), cmd.config, s.prefetched);
      break;
    case "mcp-sync":
      servers.sync(cmd.servers, cmd.cwd);
      break;
    case "mcp-restart":
      servers.restart(cmd.name);
      break;
    case "mcp-expand":
      background(servers.expand(cmd.request), "mcp-expand");
      break;
    case "shutdown":
      background(
        close(s, cmd.reason).then(() => s.deps.stopped?.()),
        "shutdown",
      );
      break;
    default:
      assertNever(cmd);
  }
}
