// Part of protocol/: plain data that crosses postMessage between the UI thread and the agent
// worker (structured-clone safe: no functions, no classes).

import type { ConversationMessage } from "./conversation.js";
import type { PermissionDecision, PermissionMode, RunConfig } from "./run-config.js";

/** UI -> worker. `runId` (chosen by the UI) comes back on every event of that run. */
export type WorkerCommand =
  | { type: "run"; runId: number; conversation: ConversationMessage[]; config: RunConfig }
  | { type: "cancel" }
  | { type: "permission-reply"; id: string; decision: PermissionDecision }
  | { type: "compact"; runId: number; conversation: ConversationMessage[]; config: RunConfig }
  /** Resolve the model (first installed when none is set) and its context length, before the first run. */
  | { type: "probe"; config: RunConfig }
  /** Post the MCP servers' state as a notice (for /mcp). */
  | { type: "mcp-status" }
  /** The user changed the permission mode (Shift+Tab) while a run goes. */
  | { type: "set-mode"; mode: PermissionMode }
  | { type: "shutdown" };
