import type { z } from "zod";
import { lazily } from "../context/lazily.js";
import type { DoneReason, RunEvent } from "../protocol/agent-event.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { ConversationMessage, ImageAttachment } from "../protocol/conversation.js";
import type { Provider } from "../providers/types.js";
import type { SessionMemory } from "./session-memory.js";

export interface ToolResult {
  /** What the model sees. */
  content: string;
  /** A unified diff for the UI when the tool changed a file. */
  diff?: string;
  /** Path the diff belongs to (relative to cwd). */
  path?: string;
  isError?: boolean;
  /** The one line shown for the call when it ends; the runner derives one when absent. */
  summary?: string;
  /** The language of the content, for colour when the user expands the output (e.g. "ts"). */
  lang?: string;
  /** Images for a model that reads them (the runner drops them for one that does not); `content` describes each. */
  images?: ImageAttachment[];
}

/** `fetch`: web_fetch, asked per host. `provider`: a project's agent would move the work to a hosted model. */
export type ApprovalKind = "edit" | "shell" | "mcp" | "fetch" | "other" | "provider";

/** What approval knows of an MCP tool call beyond its name. */
export interface McpApprovalHints {
  /** The user's config marks the server trusted: its tools run without asking. */
  trusted: boolean;
  /** readOnlyHint: free in auto-edit. */
  readOnly: boolean;
  /** destructiveHint: always asks (every mode but yolo), trusted or not. */
  destructive: boolean;
}

/** The answer to an approval request; a denial carries the reason the model is told. */
export type Approval = { ok: true } | { ok: false; reason: string };

/**
 * What the call's stages decided before its tool asks (agent/tool-call.ts): a permission rule's
 * ask or allow, a PreToolUse hook's allow (skips the dialog) or ask (forces it).
 */
export interface CallVerdict {
  rule?: { kind: "ask" | "allow"; rule: string; source: string };
  hook?: "allow" | "ask";
}

/** What a sub-agent's run needs besides what it takes from its parent's call. */
export interface SubAgentRun {
  provider: Provider;
  tools: ToolDef[];
  emit(event: RunEvent): void;
}

export interface SubAgentResult {
  reason: DoneReason;
  /** Its final assistant text. */
  answer: string;
}

/**
 * The editor's own file access (ACP `fs/read_text_file`, `fs/write_text_file`), when a client
 * offers it: reads see its unsaved buffers, writes show in the editor and can be undone there.
 * Path rules are checked before either is called, as for the disk.
 */
export interface ClientFiles {
  /** Unset when the client only writes: reads come from the disk. */
  read?(absPath: string): Promise<string>;
  /** Unset when the client only reads: writes go to the disk. */
  write?(absPath: string, text: string): Promise<void>;
}

/** A command for the client's terminal: the argv agent0 would spawn (sandbox wrapper included). */
export interface TerminalCommand {
  file: string;
  args: string[];
  cwd: string;
  /** Variables set on top of the terminal's own environment. */
  env: Record<string, string>;
  outputLimit: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** The tool call it runs for, so the client can show the terminal in that call. */
  callId: string;
}

/** How a command in the client's terminal ended: as a spawned command's ShellOutcome reads. */
export interface TerminalOutcome {
  output: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  interrupted: boolean;
  spawnError?: string;
}

/** The client's terminal (ACP `terminal/*`), when it offers one: shell commands run there. */
export interface ClientTerminal {
  run(cmd: TerminalCommand): Promise<TerminalOutcome>;
}

/** The client's file system and terminal, for every tool call of a session (sub-agents' too). */
export type ClientIo = Pick<ToolContext, "files" | "terminal">;

export interface ToolContext {
  cwd: string;
  /** Set when the file tools read and write through the client (an editor) instead of the disk. */
  files?: ClientFiles;
  /** Set when shell commands run in the client's terminal instead of a child of agent0. */
  terminal?: ClientTerminal;
  signal: AbortSignal;
  config: RunConfig;
  /** What this session's tools remember between calls (files read, failures seen). */
  memory: SessionMemory;
  /**
   * Ask before a change. Read-only tools never call this. The implementation
   * applies the permission mode, the session's "always" list and the shell allowlist,
   * and only then asks the user.
   */
  approve(
    req: {
      tool: string;
      kind: ApprovalKind;
      args: Record<string, unknown>;
      preview: string;
      /** kind "mcp": the server's trust and the tool's annotations. */
      mcp?: McpApprovalHints;
      /** The call this asks for (set by the call's approval stage; a sub-agent's nested under its delegate call). */
      callId?: string;
    },
    /** What the call's stages decided (set by its approval stage). */ verdict?: CallVerdict,
  ): Promise<Approval>;
  /** Called with an absolute path before a tool writes it, so /undo can restore it. */
  beforeWrite(absPath: string): Promise<void>;
  /** Post an event to the UI (used by delegate for its sub-agent's tool lines). */
  emit(event: RunEvent): void;
  /** Sub-agent nesting depth: 0 for the main loop. */
  depth: number;
  /** Id of the tool call being run. */
  callId: string;
  /**
   * Runs a nested agent loop (delegate's sub-agent) one level deeper, under this call's signal,
   * approval, checkpoints and memory. The loop hands it over, so tools/ never imports agent/.
   */
  runAgent(conversation: ConversationMessage[], config: RunConfig, run: SubAgentRun): Promise<SubAgentResult>;
  /** Limits the tools of the rest of this run (a skill's allowed-tools, when the model loads it). */
  restrictTools?(names: string[]): void;
}

export interface ToolDef<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Tells the model when to use the tool. */
  description: string;
  /** The description sent in a small window (protocol/window.ts), where every token of the fixed prompt counts. */
  brief?: string;
  schema: S;
  /** When set, sent to the model instead of the schema derived from `schema` (MCP tools bring their own). */
  jsonSchema?: Record<string, unknown>;
  readOnly: boolean;
  concurrentSafe: boolean;
  /** One short line for the UI, e.g. "edit src/args.ts". */
  label(args: z.infer<S>): string;
  /** A tool that does no I/O may answer at once; the runner awaits either. */
  run(args: z.infer<S>, ctx: ToolContext): ToolResult | Promise<ToolResult>;
}

/**
 * `tool` with some fields replaced. Not a spread: copying runs a deferred schema's getter, which
 * would build it (defineTool).
 */
export function toolWith<S extends z.ZodType>(tool: ToolDef<S>, changes: Partial<ToolDef<S>>): ToolDef<S> {
  return Object.defineProperties(
    {},
    { ...Object.getOwnPropertyDescriptors(tool), ...Object.getOwnPropertyDescriptors(changes) },
  ) as ToolDef<S>;
}

/** A tool as its file writes it: the schema itself, or a function that builds it. */
export type ToolDefinition<S extends z.ZodType> = Omit<ToolDef<S>, "schema"> & { schema: S | (() => S) };

/**
 * Keeps the schema's inferred type attached to `run`. A schema given as a function is built on
 * first use and kept: zod builds each in ~0.1–1 ms, and a run that calls no tool (a one-shot's
 * plain answer) needs none of them; the model is sent JSON schemas made at build time.
 */
export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): ToolDef<S> {
  const { schema } = def;
  if (typeof schema !== "function") return def as ToolDef<S>;
  return Object.defineProperty({ ...def }, "schema", { get: lazily(schema), enumerable: true }) as ToolDef<S>;
}
