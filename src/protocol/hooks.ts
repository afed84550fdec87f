// Part of protocol/: plain data that crosses postMessage. Hooks in Claude Code's shape
// (docs.anthropic.com/en/docs/claude-code/hooks): per event, a list of matchers, each with the
// commands to run. The worker runs them (agent/hooks/); the UI lists them (/hooks).

/** The events, in Claude Code's names. The one list: types and schemas derive from it. */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "Notification",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/**
 * Claude Code's `statusLine: {type: "command", command}`: a command whose first line of output
 * replaces the status line's right part (the UI runs it; `source` is the file it came from).
 */
export interface StatusLineConfig {
  command: string;
  source: string;
}

export interface HookCommand {
  type: "command";
  command: string;
  /** Seconds (Claude Code's unit); default 60. */
  timeout?: number;
}

/** One matcher group, and the file it came from (shown by /hooks). */
export interface HookGroup {
  /** A regular expression over tool names (agent0's and Claude Code's); empty or "*" = every one. */
  matcher?: string;
  hooks: HookCommand[];
  source: string;
}

export type HooksConfig = Partial<Record<HookEvent, HookGroup[]>>;
