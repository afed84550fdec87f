import type { OptionalToolFamily } from "./window.js";

// Part of protocol/: plain data that crosses postMessage between the UI thread and the agent
// worker (structured-clone safe: no functions, no classes).
import type { HooksConfig, StatusLineConfig } from "./hooks.js";
import type { PermissionRule } from "./permission-rule.js";
import type { PluginSkillFile } from "./plugins.js";

/**
 * When to ask before a change. The one list: types and schemas derive from it. "plan" is
 * read-only: changes and shell commands are refused until the user approves the plan.
 */
export const PERMISSION_MODES = ["ask", "auto-edit", "plan", "yolo"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];
export type PermissionDecision = "once" | "always" | "deny";
/** Shell sandboxing: off, or bubblewrap with only the project writable and no network. */
export const SANDBOX_MODES = ["off", "workspace-write"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
/** The providers a model can come from. The one list: types and schemas derive from it. */
export const PROVIDERS = ["ollama", "anthropic", "openai", "embedded"] as const;
export type ProviderName = (typeof PROVIDERS)[number];
/**
 * How much the model reasons before it answers: `--think <level>`, `/thinking <level>`, `"think"` in
 * the config. "on" is `--think` alone (the server's own amount); each provider maps the rest to its
 * own setting. The one list: types, flags and schemas derive from it.
 */
export const THINK_LEVELS = ["off", "on", "low", "medium", "high", "max"] as const;
export type ThinkLevel = (typeof THINK_LEVELS)[number];

/** A think setting as flags and config files give it: true and false are "on" and "off". */
export function thinkLevel(value: boolean | string | undefined): ThinkLevel | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "boolean") return value ? "on" : "off";
  return (THINK_LEVELS as readonly string[]).includes(value) ? (value as ThinkLevel) : undefined;
}
export type ToolProtocol = "native" | "json";

/** How agent0 talks to an MCP server: a child process, Streamable HTTP, or the legacy HTTP+SSE. */
export const MCP_TRANSPORTS = ["stdio", "http", "sse"] as const;
export type McpTransportKind = (typeof MCP_TRANSPORTS)[number];

export interface McpServerConfig {
  /** Unset: stdio when `command` is given, else http (falling back to sse when the server answers the old way). */
  type?: McpTransportKind;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  /** Its tools run without asking (a user-config server only; a project file cannot set it). */
  trusted?: boolean;
  /** Milliseconds to start, hand-shake and list (default 30 s). */
  timeout?: number;
  /** Milliseconds per tool call; progress from the server restarts the clock (default 120 s). */
  toolTimeout?: number;
  /** A stdio server's working folder (a plugin's root by default); unset: the session's folder. */
  cwd?: string;
  /** The Agent Plugin that defines it: its values are expanded by the plugin's rules, not ${ENV}. */
  plugin?: string;
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
  /** The system prompt for a small window (protocol/window.ts): lean instructions, no memory index or skills list. */
  systemPromptLean?: string;
  /** Tool families a small window still offers (config smallWindowTools). */
  smallWindowTools?: OptionalToolFamily[];
  /** num_ctx sent with every request of the session; 0 = not known yet (the loop asks /api/show). */
  numCtx: number;
  /**
   * No server said the window (an OpenAI-compatible server without /props, max_model_len or LM
   * Studio's API): numCtx is a placeholder, and nothing is cut or compacted to fit it until a
   * reply's counts or an overflow refusal tell the window.
   */
  windowUnknown?: boolean;
  /** llama.cpp's server runs this many slots (each keeps its own prompt cache): from model-info. */
  slots?: number;
  /**
   * The slot this agent's requests are pinned to (`id_slot`), set by the loop when the server has
   * more than one: the user's conversation one, sub-agents another, so neither evicts the other's cache.
   */
  slot?: number;
  /** Upper bound for num_ctx (the model's own context length may be larger). */
  numCtxCap: number;
  keepAlive?: string | number;
  temperature?: number;
  /** How much the model reasons (Ollama `think`, OpenAI `reasoning_effort`, Anthropic's budget); unset = the server's default. */
  think?: ThinkLevel;
  /** The config's `vision`: whether the model reads images; unset = what the server says (see vision.ts). */
  vision?: boolean;
  /** Resolved with num_ctx from `vision` and the model's capabilities: images a tool returns go to the model. */
  seesImages?: boolean;
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
  /**
   * `--add-dir`: more folders (real absolute paths) the tools may use with the project folder's
   * rules: path confinement, the sandbox's writable binds, protected control folders, secret files.
   */
  addDirs?: string[];
  dataDir: string;
  configDir: string;
  webSearch?: { backend: "duckduckgo" | "searxng" | "ollama"; url?: string; apiKey?: string };
  mcpServers?: Record<string, McpServerConfig>;
  /** "workspace-write": shell commands run under bubblewrap (see tools/shell/sandbox.ts). */
  sandbox?: SandboxMode;
  /** Hosts web_fetch may read without asking; private addresses only when allowPrivate. */
  webFetch?: { allow?: string[]; allowPrivate?: boolean };
  /** Names of secret-looking environment variables that shell commands may still see. */
  shellEnvAllow?: string[];
  /** Checkpoint folder for /undo of this turn, beside the session. */
  checkpointDir?: string;
  /** Rules that last: settings files (a project's allow rules once trusted), flags, the session's answers. */
  permissionRules?: PermissionRule[];
  /** SKILL.md files of the enabled Agent Plugins that count (the user's; a project's once trusted). */
  pluginSkills?: PluginSkillFile[];
  /** Hooks of the user's config and of trusted project settings files. */
  hooks?: HooksConfig;
  /** Claude Code's `statusLine` command (the user's, or a trusted project file's); the UI runs it. */
  statusLine?: StatusLineConfig;
  /** The session's file, sent to hooks as `transcript_path`. */
  transcriptPath?: string;
}

/**
 * A run's config fields that name its session, stamped the same way whoever drives it (the TUI,
 * `-p`, ACP, `mcp serve`; main's SessionRecorder.runStamp makes them).
 */
export interface RunStamp {
  sessionId: string;
  /** Hooks' `transcript_path`. */
  transcriptPath: string;
  /** Undefined before the session's file exists. */
  checkpointDir: string | undefined;
}
