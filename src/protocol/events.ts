// The borders between the UI thread and the agent worker. Everything that crosses
// postMessage is one of these plain-data types (structured-clone safe: no functions).

export type Role = "system" | "user" | "assistant" | "tool";

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** Provider-neutral message. Adapters map it to and from each wire format. */
export interface ConversationMessage {
  role: Role;
  content: string;
  thinking?: string;
  /** Anthropic: the signature of the thinking block, which must go back with it. */
  thinkingSignature?: string;
  toolCalls?: ToolCall[];
  /** role "tool": the call this answers. */
  toolCallId?: string;
  toolName?: string;
  /** An assistant answer cut short by the user (Esc) or a dropped connection. */
  interrupted?: boolean;
  /** A user message that came from a skill or slash command: what the user typed. */
  typed?: string;
  /** role "tool": what the UI showed, so a resumed transcript looks as it did. Never sent to a model. */
  display?: ToolDisplay;
}

export interface ToolDisplay {
  label: string;
  ok: boolean;
  summary: string;
  diff?: string;
  path?: string;
}

export type PermissionMode = "ask" | "auto-edit" | "yolo";
export type PermissionDecision = "once" | "always" | "deny";
export type ProviderName = "ollama" | "anthropic" | "openai";
export type ToolProtocol = "native" | "json";

export interface McpServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  trusted?: boolean;
}

/** Everything the worker needs for a run. Secrets (apiKey) never go to logs or sessions. */
export interface RunConfig {
  provider: ProviderName;
  model: string;
  host: string;
  baseUrl?: string;
  apiKey?: string;
  cwd: string;
  systemPrompt: string;
  /** num_ctx sent with every request of the session; 0 = not known yet (the loop asks /api/show). */
  numCtx: number;
  /** Upper bound for num_ctx (the model's own context length may be larger). */
  numCtxCap: number;
  keepAlive?: string | number;
  temperature?: number;
  /** Ask for the model's reasoning (Ollama `think`, Anthropic extended thinking); unset = the server's default. */
  think?: boolean;
  maxSteps: number;
  outputLimit: number;
  permissionMode: PermissionMode;
  /** Tools the user allowed "always" in this session. */
  allowedTools: string[];
  toolProtocol: ToolProtocol;
  /** Stream idle timeout: no bytes for this long ends the request with an error. */
  idleTimeoutMs: number;
  /** Headless runs cannot ask: mutating tools are denied unless the mode allows them. */
  interactive: boolean;
  /** Tools allowed while a skill with allowed-tools runs; undefined = all. */
  toolFilter?: string[];
  sessionId?: string;
  dataDir: string;
  configDir: string;
  webSearch?: { backend: "duckduckgo" | "searxng" | "ollama"; url?: string; apiKey?: string };
  mcpServers?: Record<string, McpServerConfig>;
  /** Checkpoint folder for /undo of this turn, beside the session. */
  checkpointDir?: string;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  contextWindow: number;
}

export type DoneReason = "complete" | "interrupted" | "stuck" | "max-steps" | "error";
export type NoticeLevel = "info" | "warn" | "error";
export type Phase = "loading" | "thinking" | "answering" | "tool";

/** Worker -> UI. `parentId` marks events of a sub-agent under its delegate call. */
export type AgentEvent =
  | { type: "text"; delta: string }
  | { type: "thinking"; delta: string }
  | { type: "status"; phase: Phase }
  | { type: "tool-start"; id: string; name: string; args: Record<string, unknown>; label: string; parentId?: string }
  | { type: "tool-end"; id: string; ok: boolean; summary: string; parentId?: string }
  | { type: "diff"; path: string; unified: string; parentId?: string }
  | { type: "permission-request"; id: string; tool: string; args: Record<string, unknown>; preview: string }
  | { type: "message"; message: ConversationMessage }
  | { type: "usage"; promptTokens: number; completionTokens: number; contextWindow: number }
  | { type: "notice"; level: NoticeLevel; text: string }
  | { type: "error"; message: string; hint?: string }
  | { type: "compacted"; before: number; after: number; conversation: ConversationMessage[] }
  | { type: "model-info"; model: string; contextLength: number; numCtx: number; capabilities: string[] }
  /** The model is being loaded ahead of the first request (so the first answer starts sooner). */
  | { type: "model-load"; state: "loading" | "ready" | "failed" }
  | { type: "done"; reason: DoneReason };

/** UI -> worker. */
export type WorkerCommand =
  | { type: "run"; conversation: ConversationMessage[]; config: RunConfig }
  | { type: "cancel" }
  | { type: "permission-reply"; id: string; decision: PermissionDecision }
  | { type: "compact"; conversation: ConversationMessage[]; config: RunConfig }
  /** Resolve the model (first installed when none is set) and its context length, before the first run. */
  | { type: "probe"; config: RunConfig }
  /** Post the MCP servers' state as a notice (for /mcp). */
  | { type: "mcp-status" }
  | { type: "shutdown" };

export function assertNever(x: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(x)}`);
}
