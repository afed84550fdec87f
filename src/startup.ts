import os from "node:os";
import type { PermissionMode, ProviderName, RunConfig } from "./core/events.js";
import { resolveOllamaHost } from "./core/providers/ollama-host.js";
import { dataDir } from "./core/paths.js";
import { loadConfig, loadMcpServers, type Config } from "./context/config.js";
import { builtinSkillsDir, configDir, configFilePath, homeDir } from "./context/dirs.js";
import { buildSystemPrompt, loadContext, type PromptPart } from "./context/prompt.js";
import { loadSkills, type Skill } from "./context/skills.js";

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
}

export interface Startup {
  config: RunConfig;
  file: Config;
  warnings: string[];
}

/** What the model is told about the project; loaded after the first frame is on screen. */
export interface ProjectContext {
  systemPrompt: string;
  skills: Skill[];
  promptParts: PromptPart[];
  warnings: string[];
}

const PROVIDERS: ProviderName[] = ["ollama", "anthropic", "openai"];
const MODES: PermissionMode[] = ["ask", "auto-edit", "yolo"];

/** Flags > environment > config file > defaults. `provider/model` in a model name picks the provider. */
export function startup(opts: CliOptions, interactive: boolean, env = process.env): Startup {
  const cwd = process.cwd();
  const { config: file, warnings } = loadConfig(configFilePath(env));
  let model = opts.model ?? env.AGENT_MODEL ?? file.model ?? "";
  let provider = (opts.provider ?? file.provider ?? "ollama") as ProviderName;
  const slash = model.indexOf("/");
  if (!opts.provider && slash > 0 && PROVIDERS.includes(model.slice(0, slash) as ProviderName)) {
    provider = model.slice(0, slash) as ProviderName;
    model = model.slice(slash + 1);
  }
  if (!PROVIDERS.includes(provider)) throw new Error(`Unknown provider '${provider}'. Use one of: ${PROVIDERS.join(", ")}.`);
  const mode = (opts.yolo ? "yolo" : (opts.permissionMode ?? file.permissionMode ?? "ask")) as PermissionMode;
  if (!MODES.includes(mode)) throw new Error(`Unknown permission mode '${mode}'. Use one of: ${MODES.join(", ")}.`);
  const numCtxCap = opts.numCtxCap ? Number(opts.numCtxCap) : file.numCtxCap;
  if (!Number.isInteger(numCtxCap) || numCtxCap <= 0) throw new Error(`--num-ctx-cap must be a positive whole number.`);
  const mcp = loadMcpServers(cwd, file);
  warnings.push(...mcp.warnings);

  const config: RunConfig = {
    provider,
    model,
    host: provider === "ollama" ? resolveOllamaHost(opts.host ?? file.host, env) : (opts.host ?? file.host ?? ""),
    baseUrl: opts.baseUrl ?? file.baseUrl,
    cwd,
    systemPrompt: "",
    numCtx: 0,
    numCtxCap,
    keepAlive: opts.keepAlive ?? file.keepAlive,
    temperature: file.temperature,
    maxSteps: file.maxSteps,
    outputLimit: file.outputLimit,
    permissionMode: mode,
    allowedTools: [],
    toolProtocol: "native",
    idleTimeoutMs: file.idleTimeoutMs,
    interactive,
    dataDir: dataDir(env),
    configDir: configDir(env),
    webSearch: file.webSearch,
    mcpServers: mcp.servers,
  };
  return { config, file, warnings };
}

/** Instruction files, git facts, memory and skills: the system prompt of the session. */
export async function loadProjectContext(cwd: string, env = process.env): Promise<ProjectContext> {
  const loadedSkills = loadSkills({ cwd, home: homeDir(env), configDir: configDir(env), builtinDir: builtinSkillsDir() });
  const context = await loadContext(cwd, env);
  const prompt = buildSystemPrompt({
    cwd,
    date: new Date().toISOString().slice(0, 10),
    platform: `${os.platform()} ${os.release()}`,
    files: context.files,
    git: context.git,
    memoryIndex: context.memoryIndex,
    skills: loadedSkills.skills,
  });
  return { systemPrompt: prompt.text, skills: loadedSkills.skills, promptParts: prompt.parts, warnings: loadedSkills.warnings };
}
