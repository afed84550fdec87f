// Part of protocol/: plain data that crosses postMessage between the UI thread and the agent
// worker (structured-clone safe: no functions, no classes).

import type { BackgroundJobView } from "./jobs.js";
import type { EngineOffer } from "./engine-offer.js";
import type { ConversationMessage, ImageAttachment, ToolDisplay } from "./conversation.js";
import type { McpServerView } from "./mcp-state.js";
import type { HookEvent } from "./hooks.js";

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  contextWindow: number;
}

export type DoneReason = "complete" | "interrupted" | "stuck" | "max-steps" | "error";
export type NoticeLevel = "info" | "warn" | "error";
export type Phase = "loading" | "thinking" | "answering" | "tool";

/**
 * What the agent reports, as the loop and the tools emit it (the worker stamps the run id).
 * `parentId` marks events of a sub-agent under its delegate call.
 */
export type RunEvent =
  | { type: "text"; delta: string }
  | { type: "thinking"; delta: string }
  /** `writing`: the tool a constrained reply is calling, as soon as its name has streamed. */
  | { type: "status"; phase: Phase; writing?: string }
  | { type: "tool-start"; id: string; name: string; args: Record<string, unknown>; label: string; parentId?: string }
  /** The tool's line as the UI shows it (and the session keeps it): label, outcome, summary, diff. */
  | { type: "tool-end"; id: string; display: ToolDisplay; parentId?: string }
  /** `why`: the reason this asks when the mode alone would not (a protected path, a path outside the project...). */
  | {
      type: "permission-request";
      id: string;
      /** The tool call it asks for (a sub-agent's nested under its delegate call: `parent/child`). */
      callId?: string;
      tool: string;
      args: Record<string, unknown>;
      preview: string;
      why?: string;
      /** What "always" adds to the session's allowedTools (the tool, or `web_fetch:host`). */
      allowKey: string;
      /** A shell command: what `a` offers (this exact command, its prefix for the project, the tool). */
      alwaysOptions?: { label: string; rule: string; scope: "session" | "project" }[];
    }
  /** The user answered "always": the session's allowedTools gain `key` (the UI keeps it for later runs). */
  | { type: "allowed"; key: string }
  /** A message typed during the run (steer `id`) went to the model now: its `message` event follows. */
  | { type: "steered"; id: number }
  /** A hook command started or ended (the status line shows the one running). */
  | { type: "hook"; state: "running" | "done"; event: HookEvent; command: string }
  /**
   * The prompt never reached the model and leaves the conversation (the TUI puts it back in the
   * input): a UserPromptSubmit hook blocked it, or it cannot fit the context window (`reason` has
   * its size and the window).
   */
  | { type: "prompt-blocked"; reason: string; source: "hook" | "window" }
  /** A headless run could not ask, so this call was denied (printed on stderr; the run fails). */
  | { type: "denied"; tool: string; preview: string; why?: string; callId?: string }
  | { type: "message"; message: ConversationMessage }
  | {
      type: "usage";
      promptTokens: number;
      completionTokens: number;
      /** The window the session now works in (smaller than before when the server cut the prompt). */
      contextWindow: number;
      /** contextWindow is a placeholder: no server has told it yet. */
      windowUnknown?: true;
      /** The part of the prompt the server read from its cache, when it says. */
      cachedTokens?: number;
      /** What the tool schemas of that request cost (an estimate), for /context. */
      toolTokens?: number;
    }
  | { type: "notice"; level: NoticeLevel; text: string }
  /** `offer`: no server answered and the embedded engine could run a model instead (the first screen asks). */
  | { type: "error"; message: string; hint?: string; offer?: EngineOffer }
  | { type: "compacted"; before: number; after: number; conversation: ConversationMessage[] }
  | {
      type: "model-info";
      model: string;
      contextLength: number;
      numCtx: number;
      capabilities: string[];
      /** The server did not say the window: numCtx is a placeholder (RunConfig.windowUnknown). */
      windowUnknown?: true;
      /** llama.cpp's slot count (RunConfig.slots). */
      slots?: number;
    }
  /** The model is being loaded ahead of the first request (so the first answer starts sooner). */
  | { type: "model-load"; state: "loading" | "ready" | "failed" }
  /** Progress a tool reported (an MCP server's notifications/progress). */
  | { type: "tool-progress"; id: string; progress: number; total?: number; message?: string }
  /** The MCP servers changed (started, failed, restarted, a list changed on the server). */
  | { type: "mcp-state"; servers: McpServerView[] }
  /** The session's background commands, after each start, exit or kill. */
  | { type: "jobs"; jobs: BackgroundJobView[] }
  /** The answer to mcp-expand: the user turn to send, or why it cannot be built. */
  | { type: "mcp-expanded"; typed: string; content: string; images?: ImageAttachment[] }
  | { type: "mcp-expand-failed"; typed: string; error: string }
  /** The session moved to the JSON reply protocol (the model cannot call tools natively): later runs stay on it. */
  | { type: "tool-protocol"; protocol: "json" }
  /** A line for the run log only (a command for a run that had ended was dropped); the screen shows nothing. */
  | { type: "log"; text: string }
  | { type: "done"; reason: DoneReason };

/**
 * Worker -> UI: an event and the run (`run` or `compact` command) it belongs to; null for events
 * of no run (the probe, /mcp, the worker's own failures). The UI drops events of a run that is not
 * the current one, so a late event from a stopped run can never touch the next.
 */
export type AgentEvent = RunEvent & { runId: number | null };
