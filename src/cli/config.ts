import {
  PERMISSION_MODES,
  PROVIDERS,
  thinkLevel,
  type McpServerConfig,
  type PermissionMode,
  type ProviderName,
  type RunConfig,
} from "../protocol/run-config.js";
import { resolveOllamaHost } from "./tool-use.js";
import { configDir, dataDir } from "../context/dirs.js";
import { configDefaults, DEFAULT_KEEP_ALIVE, MAX_CONTEXT_TOKENS } from "../context/config-defaults.js";
import type { Config } from "../context/config.js";
import { resolveAddDirs } from "../context/add-dirs.js";

export interface CliOptions {
  model?: string;
  host?: string;
  provider?: string;
  baseUrl?: string;
  permissionMode?: string;
  yolo?: boolean;
  numCtxCap?: string;
  tickMs?: string;
  keepAlive?: string;
  /** --think (true), --think <level>, --no-think (false). */
  think?: boolean | string;
  sandbox?: boolean;
  /** Start the project's own MCP servers (.agent0/mcp.json, .mcp.json) without asking. */
  trustProjectMcp?: boolean;
  /** Claude Code's flags: permission rules, separated by commas or spaces. */
  allowedTools?: string;
  disallowedTools?: string;
  /** `--add-dir`, repeatable: more folders the tools may use. */
  addDir?: string[];
}

const MODES = PERMISSION_MODES;

/**
 * Flags > environment > config file > defaults. `provider/model` in a model name picks the
 * provider. Light on purpose (no zod): the TUI paints its first frame from flags and environment
 * alone, then applies the config file.
 */
export function resolveConfig(
  opts: CliOptions,
  file: Partial<Config>,
  extra: { interactive: boolean; mcpServers?: Record<string, McpServerConfig>; cwd?: string },
  env: NodeJS.ProcessEnv = process.env,
): RunConfig {
  let model = opts.model ?? env.AGENT_MODEL ?? file.model ?? "";
  let provider = (opts.provider ?? file.provider ?? "ollama") as ProviderName;
  const slash = model.indexOf("/");
  if (!opts.provider && slash > 0 && PROVIDERS.includes(model.slice(0, slash) as ProviderName)) {
    provider = model.slice(0, slash) as ProviderName;
    model = model.slice(slash + 1);
  }
  if (!PROVIDERS.includes(provider))
    throw new Error(`Unknown provider '${provider}'. Use one of: ${PROVIDERS.join(", ")}.`);
  const mode = (opts.yolo ? "yolo" : (opts.permissionMode ?? file.permissionMode ?? "ask")) as PermissionMode;
  if (!MODES.includes(mode)) throw new Error(`Unknown permission mode '${mode}'. Use one of: ${MODES.join(", ")}.`);
  const numCtxCap = opts.numCtxCap ? Number(opts.numCtxCap) : (file.numCtxCap ?? configDefaults.numCtxCap);
  if (!Number.isInteger(numCtxCap) || numCtxCap <= 0 || numCtxCap > MAX_CONTEXT_TOKENS)
    throw new Error(`--num-ctx-cap must be a whole number from 1 to ${MAX_CONTEXT_TOKENS}.`);
  return {
    provider,
    model,
    host: provider === "ollama" ? resolveOllamaHost(opts.host ?? file.host, env) : (opts.host ?? file.host ?? ""),
    baseUrl: opts.baseUrl ?? file.baseUrl ?? defaultBaseUrl(provider, env),
    cwd: extra.cwd ?? process.cwd(),
    ...(opts.addDir?.length ? { addDirs: resolveAddDirs(opts.addDir, extra.cwd ?? process.cwd()) } : {}),
    systemPrompt: "",
    numCtx: 0,
    numCtxCap,
    keepAlive: keepAliveValue(opts.keepAlive ?? file.keepAlive ?? DEFAULT_KEEP_ALIVE),
    temperature: file.temperature,
    think: thinkLevel(opts.think ?? file.think),
    vision: file.vision,
    maxSteps: file.maxSteps ?? configDefaults.maxSteps,
    outputLimit: file.outputLimit ?? configDefaults.outputLimit,
    permissionMode: mode,
    allowedTools: [],
    toolProtocol: "native",
    idleTimeoutMs: file.idleTimeoutMs ?? configDefaults.idleTimeoutMs,
    interactive: extra.interactive,
    dataDir: dataDir(env),
    configDir: configDir(env),
    webSearch: file.webSearch,
    mcpServers: extra.mcpServers,
    sandbox: opts.sandbox ? "workspace-write" : (file.sandbox ?? "off"),
    webFetch: file.webFetch,
    shellEnvAllow: file.shellEnv?.allow,
    smallWindowTools: file.smallWindowTools,
  };
}

/**
 * Ollama reads a string keep_alive as a Go duration, where "-1" has no unit and is refused (400);
 * a number is seconds, and a negative one keeps the model loaded (ollama-wire.md §1.1). A number
 * typed on the command line is sent as that number.
 */
export function keepAliveValue(value: string | number): string | number {
  return typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
}

/**
 * Where a hosted provider is reached when no --base-url is given: its environment variable, else
 * its public endpoint. Resolved here so the header names the server the requests go to.
 */
function defaultBaseUrl(provider: ProviderName, env: NodeJS.ProcessEnv): string | undefined {
  switch (provider) {
    case "ollama":
      return undefined;
    case "anthropic":
      return env.ANTHROPIC_BASE_URL || "https://api.anthropic.com";
    case "openai":
      return env.OPENAI_BASE_URL || "https://api.openai.com/v1";
  }
}
