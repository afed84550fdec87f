// The delegate tool: a sub-agent with a fresh conversation, its own prompt and a restricted tool
// set runs a task through the same loop and hands back its final answer as the tool result.
import { type SubAgentResult, type ToolResult, defineTool, type ToolContext, type ToolDef } from "./types.js";
import * as z from "zod";
import type { RunEvent } from "../protocol/agent-event.js";
import type { RunConfig } from "../protocol/run-config.js";
import { anthropicModelOf, BUILTIN_AGENT_TYPES, loadAgentTypes, type AgentType } from "../context/agent-types.js";
import { createProvider, splitProviderModel } from "../providers/index.js";
import type { Provider } from "../providers/types.js";

/**
 * The user's own agent runs at depth 0 and each delegation adds one, so sub-agents exist at
 * depths 1, 2 and 3. A delegate call made at depth 3 (a fourth level) is refused.
 */
export const MAX_DELEGATION_DEPTH = 3;
export const DEPTH_LIMIT_MESSAGE = `Error: delegation is limited to ${MAX_DELEGATION_DEPTH} levels; do this task yourself.`;

export interface DelegateOptions {
  /** Makes the sub-agent's provider (tests pass a fake). Default: createProvider. */
  createProvider?: (config: RunConfig) => Provider;
  /** The types named in the tool's description, e.g. the ones loadAgentTypes found at startup. */
  agentTypes?: readonly AgentType[];
  /** The date written into the sub-agent's prompt. */
  now?: () => Date;
}

const schema = () =>
  z.object({
    task: z
      .string()
      .min(1)
      .describe("The whole task, self-contained: the sub-agent sees nothing of this conversation."),
    agent_type: z.string().optional().describe('Which kind of sub-agent; default "general".'),
  });

function describeTool(types: readonly AgentType[]): string {
  const list = types.map((t) => `${t.name} (${t.description})`).join("; ");
  return (
    "Hand a self-contained task to a sub-agent with a fresh conversation; its final answer comes back as the " +
    "result. Use it for searches or research whose details you do not need to keep, or for independent " +
    `pieces of work. Types: ${list}.`
  );
}

/** The sub-agent's config: the type's prompt, tools and model on top of the parent's run. */
export function subAgentConfig(parent: RunConfig, type: AgentType, date: Date): RunConfig {
  const config: RunConfig = {
    ...parent,
    systemPrompt:
      `${type.systemPrompt}\n\n# Environment\nDate: ${date.toISOString().slice(0, 10)}\n` +
      `Platform: ${process.platform}\nWorking folder: ${parent.cwd}`,
  };
  // The parent's lean prompt is the parent's: a sub-agent's type has its own.
  delete config.systemPromptLean;
  // Within a restricted run (a skill's allowed-tools), a sub-agent gets no more than its parent.
  const own = type.tools;
  const inherited = parent.toolFilter;
  if (own) config.toolFilter = inherited ? own.filter((t) => inherited.includes(t)) : [...own];
  else if (inherited) config.toolFilter = [...inherited];
  else delete config.toolFilter;
  const alias = type.model ? anthropicModelOf(type.model) : undefined;
  // Claude Code's `sonnet`/`opus`/`haiku` (and `claude-…` ids) name Anthropic's models: elsewhere
  // the parent's model stays (runSubAgent says so).
  if (alias) {
    if (parent.provider === "anthropic") config.model = alias;
  } else if (type.model) {
    const { provider, model } = splitProviderModel(type.model);
    config.model = model;
    if (provider && provider !== parent.provider) {
      // Another provider's credentials come from its own environment variables.
      config.provider = provider;
      delete config.apiKey;
      delete config.baseUrl;
    }
  }
  return config;
}

/**
 * What of a sub-agent's events the UI sees: its tool lines (with their diffs), placed under the delegate
 * call (ids are prefixed with the call's id so they never clash with the parent's), and its
 * notices. Its text, thinking, messages, usage and compaction belong to its own conversation.
 */
export function forwardSubAgentEvent(e: RunEvent, callId: string, typeName: string): RunEvent | undefined {
  const nest = (id: string) => `${callId}/${id}`;
  switch (e.type) {
    case "tool-start":
    case "tool-end":
      return { ...e, id: nest(e.id), parentId: e.parentId ? nest(e.parentId) : callId };
    case "notice":
      return { ...e, text: `${typeName} sub-agent: ${e.text}` };
    default:
      return undefined;
  }
}

/**
 * What the user is asked when a project's agent file would move the work to a hosted provider (the
 * code and the user's API key would go there); undefined when it stays where the parent runs.
 */
function movesToHostedModel(parent: RunConfig, sub: RunConfig, type: AgentType): string | undefined {
  if (type.scope !== "project" || sub.provider === parent.provider || sub.provider === "ollama") return undefined;
  const where =
    sub.baseUrl ?? (sub.provider === "anthropic" ? process.env.ANTHROPIC_BASE_URL : process.env.OPENAI_BASE_URL);
  return (
    `This project's agent ${type.name} (${type.source}) names the hosted model ${sub.provider}/${sub.model}.\n` +
    `Delegating to it sends this task, the files it reads and your ${sub.provider} API key to ` +
    `${where || `${sub.provider}'s API`}, instead of ${parent.provider}/${parent.model}.`
  );
}

const CONTINUE_HINT = / Type a message to continue the work\.$/;

function outcome(
  result: SubAgentResult,
  type: string,
  seen: { notice?: string; error?: string; calls: number },
): ToolResult {
  const partial = result.answer ? `\nIts last message:\n${result.answer}` : "";
  switch (result.reason) {
    case "complete":
      if (!result.answer) return { content: `Error: the ${type} sub-agent ended without an answer.`, isError: true };
      return {
        content: result.answer,
        summary: `${type}: answered after ${seen.calls} tool call${seen.calls === 1 ? "" : "s"}`,
      };
    case "interrupted":
      return { content: "Error: interrupted by the user.", isError: true };
    case "stuck":
    case "max-steps": {
      const fallback = result.reason === "stuck" ? "it went in circles." : "it reached the step limit.";
      const why = seen.notice?.replace(CONTINUE_HINT, "") ?? fallback;
      return { content: `Error: the ${type} sub-agent was stopped: ${why}${partial}`, isError: true };
    }
    case "error":
      return {
        content: `Error: the ${type} sub-agent failed: ${seen.error ?? "unknown error"}${partial}`,
        isError: true,
      };
  }
}

async function runSubAgent(
  task: string,
  type: AgentType,
  ctx: ToolContext,
  getTools: () => ToolDef[],
  opts: DelegateOptions,
): Promise<ToolResult> {
  const config = subAgentConfig(ctx.config, type, (opts.now ?? (() => new Date()))());
  if (type.model && anthropicModelOf(type.model) && config.provider !== "anthropic")
    ctx.emit({
      type: "notice",
      level: "info",
      text: `${type.name} names Claude's model "${type.model}"; it runs on this session's model, ${config.model}.`,
    });
  const moved = movesToHostedModel(ctx.config, config, type);
  if (moved) {
    const approval = await ctx.approve({
      tool: "delegate",
      kind: "provider",
      args: { agent_type: type.name, model: `${config.provider}/${config.model}` },
      preview: moved,
    });
    if (!approval.ok)
      return { content: `Error: the ${type.name} sub-agent did not run: ${approval.reason}`, isError: true };
  }
  const seen: { notice?: string; error?: string; calls: number } = { calls: 0 };
  const emit = (e: RunEvent): void => {
    if (e.type === "error") seen.error = e.hint ? `${e.message} (${e.hint})` : e.message;
    if (e.type === "notice") seen.notice = e.text;
    if (e.type === "tool-start" && !e.parentId) seen.calls++;
    const forwarded = forwardSubAgentEvent(e, ctx.callId, type.name);
    if (forwarded) ctx.emit(forwarded);
  };
  const result = await ctx.runAgent([{ role: "user", content: task }], config, {
    provider: (opts.createProvider ?? createProvider)(config),
    tools: getTools(),
    emit,
  });
  return outcome(result, type.name, seen);
}

/** `getTools` gives every tool of the run, the delegate tool included, so general sub-agents can nest. */
export function createDelegateTool(getTools: () => ToolDef[], opts: DelegateOptions = {}): ToolDef {
  return defineTool({
    name: "delegate",
    description: describeTool(opts.agentTypes ?? BUILTIN_AGENT_TYPES),
    schema,
    readOnly: false,
    // Sub-agents may ask for permission; one dialog at a time.
    concurrentSafe: false,
    label: (args) => {
      const task = args.task.split("\n")[0]!.trim();
      return `delegate to ${args.agent_type ?? "general"}: ${task.length > 60 ? `${task.slice(0, 59)}…` : task}`;
    },
    async run(args, ctx): Promise<ToolResult> {
      if (ctx.depth >= MAX_DELEGATION_DEPTH) return { content: DEPTH_LIMIT_MESSAGE, isError: true };
      const wanted = args.agent_type?.trim() || "general";
      const { types, warnings } = loadAgentTypes({ cwd: ctx.cwd, configDir: ctx.config.configDir });
      const type = types.find((t) => t.name === wanted);
      if (!type) {
        const problems = warnings.length > 0 ? ` Files that did not load: ${warnings.join("; ")}` : "";
        return {
          content: `Error: no agent type "${wanted}". Available: ${types.map((t) => t.name).join(", ")}.${problems}`,
          isError: true,
        };
      }
      return runSubAgent(args.task, type, ctx, getTools, opts);
    },
  });
}
