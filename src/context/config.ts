import {
  PERMISSION_MODES,
  PROVIDERS,
  SANDBOX_MODES,
  THINK_LEVELS,
  type McpServerConfig,
} from "../protocol/run-config.js";
import { OPTIONAL_TOOL_FAMILIES } from "../protocol/window.js";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import * as z from "zod";
import { lazily } from "./lazily.js";
import { COLOUR_THEMES } from "../render/colour-themes.js";
import { parseMcpServers } from "./mcp-config.js";

/**
 * One schema per key, so a bad value costs only that key, never the whole file. Made when a config
 * file is first read (lazily).
 */
export const configKeySchemas = lazily(() => {
  const positiveInt = z.number().int().positive();
  return {
    model: z.string().min(1),
    host: z.string().min(1),
    provider: z.enum(PROVIDERS),
    baseUrl: z.string().min(1),
    numCtxCap: positiveInt.max(MAX_CONTEXT_TOKENS),
    permissionMode: z.enum(PERMISSION_MODES),
    tickMs: positiveInt,
    /** Lines of output a tool entry shows when expanded with Ctrl+O (default 200). */
    toolOutputLines: positiveInt,
    /** Capture the mouse (wheel and clicks) instead of the terminal's alternate-scroll mode. */
    mouse: z.boolean(),
    keepAlive: z.union([z.string(), z.number()]),
    temperature: z.number().min(0),
    /** true/false, or a level: "off", "on", "low", "medium", "high", "max". */
    think: z.union([z.boolean(), z.enum(THINK_LEVELS)]),
    /** Whether the model reads images (MCP tool results); unset = what the server says about it. */
    vision: z.boolean(),
    maxSteps: positiveInt,
    outputLimit: positiveInt,
    idleTimeoutMs: positiveInt,
    webSearch: z.object({
      backend: z.enum(["duckduckgo", "searxng", "ollama"]),
      url: z.string().optional(),
      apiKey: z.string().optional(),
    }),
    mcpServers: z.record(z.string(), z.unknown()),
    /** Claude Code's hooks, read by settings-files.ts (each bad part skipped with a warning). */
    hooks: z.unknown(),
    /** Claude Code's permission rules {allow, ask, deny}, read by settings-files.ts. */
    permissions: z.unknown(),
    /** Claude Code's statusLine {type: "command", command}, read by settings-files.ts. */
    statusLine: z.unknown(),
    /** How to draw attention when a run ends or a question waits in an unfocused terminal. */
    notify: z.enum(["bell", "osc9", "off"]),
    /** Colours for a dark or light background, or the terminal's own 16 (default: from the terminal's background). */
    theme: z.enum(COLOUR_THEMES),
    /** Show a run's progress in the terminal's tab or taskbar (OSC 9;4); default: where the terminal is known to. */
    terminalProgress: z.boolean(),
    /** Enter during a run sends the message at the model's next step (default); false queues it for after the run. */
    steer: z.boolean(),
    /** Claude Code's key: after an answer, how long the input waits unused before Notification hooks hear `idle_prompt` (default 60000). */
    messageIdleNotifThresholdMs: positiveInt,
    sandbox: z.enum(SANDBOX_MODES),
    webFetch: z.object({ allow: z.array(z.string()).optional(), allowPrivate: z.boolean().optional() }),
    shellEnv: z.object({ allow: z.array(z.string()) }),
    /** Agent Plugins switched off (`false`) or on; unlisted ones are on (Claude Code's key). */
    enabledPlugins: z.record(z.string(), z.boolean()),
    /** Tool families a small window (≤ 8k tokens) still offers: memory, web, todo, delegate, skills. */
    smallWindowTools: z.array(z.enum(OPTIONAL_TOOL_FAMILIES)),
  } as const;
});

export { configDefaults } from "./config-defaults.js";
import { configDefaults, MAX_CONTEXT_TOKENS } from "./config-defaults.js";

type KeySchemas = ReturnType<typeof configKeySchemas>;
type Raw = { [K in keyof KeySchemas]?: z.infer<KeySchemas[K]> };

export type Config = Omit<Raw, keyof typeof configDefaults | "mcpServers"> & {
  [K in keyof typeof configDefaults]: number;
} & { mcpServers?: Record<string, McpServerConfig> };

export interface LoadedConfig {
  config: Config;
  warnings: string[];
}

export function defaultConfig(): Config {
  return { ...configDefaults };
}

/** "Invalid input: expected number, received string" -> "expected number, received string". */
function issueText(issue: z.core.$ZodIssue): string {
  return issue.message.replace(/^Invalid (input|option):\s*/, "");
}

function keyPath(parts: readonly PropertyKey[]): string {
  return parts.map(String).join(".");
}

function readJsonObject(path: string): { value?: Record<string, unknown>; warning?: string } {
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { warning: `${path}: not valid JSON (${why}) — using the defaults` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { warning: `${path}: expected a JSON object — using the defaults` };
  }
  return { value: parsed as Record<string, unknown> };
}

/**
 * Reads config.json. A missing file is not an error. Each invalid key gets a warning
 * naming the file and the key, and falls back to its default; the valid keys are kept.
 */
export function loadConfig(path: string): LoadedConfig {
  const config: Config = defaultConfig();
  const { value, warning } = readJsonObject(path);
  if (!value) return { config, warnings: warning ? [warning] : [] };

  const warnings: string[] = [];
  const out = config as Record<string, unknown>;
  for (const [key, rawValue] of Object.entries(value)) {
    if (!(key in configKeySchemas())) {
      warnings.push(`${path}: ${key}: unknown key — ignored`);
      continue;
    }
    if (key === "mcpServers") {
      const mcp = parseMcpServers(path, rawValue, "mcpServers");
      warnings.push(...mcp.warnings);
      out.mcpServers = mcp.servers;
      continue;
    }
    const schema = configKeySchemas()[key as keyof KeySchemas];
    const parsed = schema.safeParse(rawValue);
    if (parsed.success) {
      out[key] = parsed.data;
    } else {
      const issue = parsed.error.issues[0]!;
      warnings.push(`${path}: ${keyPath([key, ...issue.path])}: ${issueText(issue)} — using the default`);
    }
  }
  return { config, warnings };
}

/**
 * Merges `partial` into the file's JSON and writes it back (creating the folder).
 * A key set to undefined is removed. Keys it does not know are kept as they were.
 */
export async function saveConfigKeys(path: string, partial: Partial<Config>): Promise<void> {
  let current: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      current = parsed as Record<string, unknown>;
    }
  } catch {
    // Missing or unreadable: start from an empty object rather than refuse to save.
  }
  for (const [key, value] of Object.entries(partial)) {
    if (value === undefined) delete current[key];
    else current[key] = value;
  }
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(current, null, 2)}\n`, "utf8");
  await rename(tmp, path);
}
