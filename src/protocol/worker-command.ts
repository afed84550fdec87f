// Part of protocol/: plain data that crosses postMessage between the UI thread and the agent
// worker (structured-clone safe: no functions, no classes).

import type { ConversationMessage } from "./conversation.js";
import type { McpServerConfig, PermissionDecision, PermissionMode, RunConfig } from "./run-config.js";
import type { McpExpandRequest } from "./mcp-state.js";

/**
 * UI -> worker. `runId` (chosen by the UI) comes back on every event of that run; a command aimed
 * at a run (cancel, permission-reply, set-mode) names it, and one for a run that has ended is
 * dropped (and logged).
 */
export type WorkerCommand =
  /** `last`: the process ends after this run (headless), so the worker skips its idle clean-up. */
  | { type: "run"; runId: number; conversation: ConversationMessage[]; config: RunConfig; last?: boolean }
  | { type: "cancel"; runId: number }
  /**
   * A message typed during run `runId`: the loop sends it to the model at the next step boundary
   * (after the running tool ends) and reports it with `steered`; dropped when that run has ended.
   */
  | { type: "steer"; runId: number; id: number; message: ConversationMessage }
  /** `reason`: what the user typed when denying; the model reads it as the tool's result. */
  | {
      type: "permission-reply";
      runId: number;
      id: string;
      decision: PermissionDecision;
      reason?: string;
      /** "always" for one of the request's alwaysOptions: the rule kept (session) or saved (project). */
      always?: { rule: string; scope: "session" | "project" };
    }
  | { type: "compact"; runId: number; conversation: ConversationMessage[]; config: RunConfig }
  /** Resolve the model (first installed when none is set) and its context length, before the first run. */
  | { type: "probe"; config: RunConfig }
  /** The user changed the permission mode (Shift+Tab) while a run goes. */
  | { type: "set-mode"; runId: number; mode: PermissionMode }
  /** Ask the server about the configured model now; the next run uses the answer (headless start-up). */
  | { type: "prefetch-model-info"; config: RunConfig }
  /**
   * Run exactly these MCP servers: start new ones, restart changed ones, stop removed ones, keep
   * the rest running. Sent after boot, after a trust decision and at /new.
   */
  | { type: "mcp-sync"; servers: Record<string, McpServerConfig>; cwd: string }
  | { type: "mcp-restart"; name: string }
  /** Render a server prompt and read @server:uri resources into one user turn (answer: mcp-expanded). */
  | { type: "mcp-expand"; request: McpExpandRequest }
  /** Ctrl+B: the shell command this run is waiting for goes on in the background. */
  | { type: "background-shell"; runId: number }
  /** /jobs kill <id>: stop a background command. */
  | { type: "job-kill"; id: string }
  /** Claude Code's Notification hook outside a run: the input has waited for the user (`idle_prompt`). */
  | { type: "notification"; config: RunConfig; notificationType: "idle_prompt"; message: string }
  /** `reason`: Claude Code's SessionEnd reason ("prompt_input_exit": the user quit from the input). */
  | { type: "shutdown"; reason?: "prompt_input_exit" | "other" };

/**
 * The one handle on an agent, whoever drives it: the TUI's worker (ui/runtime/agent-handle.ts),
 * the agent of a `-p` run (cli/agent-start.ts) and of a hosted session (cli/session-agent.ts).
 */
export interface AgentLink {
  send(cmd: WorkerCommand): void;
  /** Stops the agent (its MCP servers first). */
  close(): Promise<void>;
}
