// Plain data of the steering features (slash menu, @ mentions, todos, notifications), kept
// apart from model.ts so other sources (MCP prompts and resources) can feed them by Msg.

/** One line of the slash menu: from built-in commands, skills, custom commands, or MCP prompts. */
export interface CommandItem {
  /** Without the slash. */
  name: string;
  description: string;
  /** Where it comes from, shown in the menu: "built-in", "skill", "project command", "mcp:<server>"… */
  source: string;
  /** How its arguments are written, e.g. "<id>" (required) or "[name]". */
  args?: string;
}

/** A candidate of @ completion besides the project's files, e.g. an MCP resource `server:uri`. */
export interface MentionItem {
  /** What is inserted after the `@`. */
  value: string;
  detail?: string;
  source: string;
  /** The start of a value the user finishes (an MCP resource template's fixed part): no space after it. */
  partial?: boolean;
}

export interface MenuState {
  kind: "slash" | "mention";
  /** The text the items were filtered by; a new query selects the first item again. */
  query: string;
  selected: number;
}

export type TodoStatus = "pending" | "in_progress" | "completed";

export interface TodoItem {
  content: string;
  status: TodoStatus;
}

export const NOTIFY_MODES = ["bell", "osc9", "off"] as const;
export type NotifyMode = (typeof NOTIFY_MODES)[number];

/** For the summary printed on quit. */
export interface SessionStats {
  turns: number;
  toolCalls: number;
  tokensIn: number;
  tokensOut: number;
  startedAt: number;
  /** Per model, for /cost: requests, tokens and the time its runs took. */
  byModel: Record<string, { requests: number; tokensIn: number; tokensOut: number; ms: number }>;
}

/** One row of the completion menu (a slash command or an @ mention). */
export interface MenuRow {
  label: string;
  detail: string;
  source: string;
  /** What replaces the token being completed. */
  insert: string;
  /** Enter runs it (a slash command that needs no argument). */
  runs: boolean;
  /** After it is inserted the menu stays open (a folder: its files are next). */
  keepOpen: boolean;
}
