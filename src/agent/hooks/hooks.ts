// Hooks as Claude Code runs them (docs.anthropic.com/en/docs/claude-code/hooks), so a user's
// existing hooks work unchanged: the input JSON it sends (`session_id`, `transcript_path`, `cwd`,
// `hook_event_name`, `tool_name` in Claude Code's names with `tool_input.file_path`, ...), and its
// answers: exit 0 lets the action through, exit 2 blocks it (stderr is the reason), JSON on stdout
// may carry `decision`/`reason`, `continue`/`stopReason`, `systemMessage` and `hookSpecificOutput`
// (`permissionDecision`, `additionalContext`); any other exit is a hook error that does not block.
// The commands of an event run one after another, each with its time-out.
import path from "node:path";
import type { RunEvent } from "../../protocol/agent-event.js";
import type { HookEvent, HooksConfig } from "../../protocol/hooks.js";
import type { RunConfig } from "../../protocol/run-config.js";
import { runHookCommand } from "./run-hook.js";

/** agent0's tools under the name Claude Code gives the same tool (what hook scripts test for). */
const CLAUDE_NAMES: Readonly<Record<string, string>> = {
  run_shell_command: "Bash",
  read_file: "Read",
  edit_file: "Edit",
  apply_patch: "Edit",
  write_file: "Write",
  create_file: "Write",
  multi_edit: "MultiEdit",
  glob_files: "Glob",
  grep_files: "Grep",
  list_files: "LS",
  web_fetch: "WebFetch",
  web_search: "WebSearch",
  delegate: "Task",
  todo_write: "TodoWrite",
};

export function claudeToolName(tool: string): string {
  return CLAUDE_NAMES[tool] ?? tool;
}

/** Whether a group's matcher covers `value` (a tool: its own name or Claude Code's). Anchored, as Claude Code's. */
export function hookMatches(matcher: string | undefined, values: readonly string[]): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  try {
    const re = new RegExp(`^(?:${matcher})$`);
    return values.some((v) => re.test(v));
  } catch {
    return false;
  }
}

/**
 * Events whose matcher Claude Code ignores (its reference: "For events like UserPromptSubmit, Stop,
 * and SubagentStop that don't use matchers, you can omit the matcher field"): every group runs.
 */
const NO_MATCHER: ReadonlySet<HookEvent> = new Set<HookEvent>(["UserPromptSubmit", "Stop", "SubagentStop"]);

/** What the hooks of one event said, together. */
export interface HookOutcome {
  /** Exit 2, `decision: "block"`, or `permissionDecision: "deny"`: the reason. */
  block?: string;
  /** The strongest `permissionDecision` of a PreToolUse hook (deny > ask > allow). */
  permission?: "allow" | "ask" | "deny";
  /** `additionalContext`, and plain stdout of UserPromptSubmit and SessionStart: text for the model. */
  context: string[];
  /** `continue: false`: the run stops, with this reason for the user. */
  stop?: string;
  /** PreToolUse `hookSpecificOutput.updatedInput`: the call runs with these arguments instead. */
  updatedInput?: Record<string, unknown>;
}

/** The fields every hook gets. */
export function hookBase(config: RunConfig, event: HookEvent): Record<string, unknown> {
  return {
    session_id: config.sessionId ?? "",
    transcript_path: config.transcriptPath ?? "",
    cwd: config.cwd,
    hook_event_name: event,
    permission_mode: config.permissionMode,
  };
}

/** A tool call as a PreToolUse/PostToolUse hook sees it: Claude Code's tool name and `file_path`. */
export function toolInput(config: RunConfig, tool: string, args: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {
    tool_name: claudeToolName(tool),
    tool_input: {
      ...args,
      ...(typeof args.path === "string" ? { file_path: path.resolve(config.cwd, args.path) } : {}),
    },
  };
  if (input.tool_name !== tool) input.agent0_tool_name = tool;
  return input;
}

const RANK = { allow: 1, ask: 2, deny: 3 } as const;

/**
 * Runs the hooks of `event` whose matcher covers `match` (tool names; SessionStart's source,
 * PreCompact's trigger, SessionEnd's reason, Notification's type), in order, each shown in the
 * status line while it runs. Stops at the first that blocks.
 */
export async function runHooks(
  config: RunConfig,
  event: HookEvent,
  match: readonly string[],
  input: Record<string, unknown>,
  emit: (e: RunEvent) => void,
  signal?: AbortSignal,
): Promise<HookOutcome> {
  const outcome: HookOutcome = { context: [] };
  const groups = (config.hooks?.[event] ?? []).filter((g) => NO_MATCHER.has(event) || hookMatches(g.matcher, match));
  const payload = { ...hookBase(config, event), ...input };
  for (const group of groups) {
    for (const hook of group.hooks) {
      if (signal?.aborted) return outcome;
      emit({ type: "hook", state: "running", event, command: hook.command });
      const run = await runHookCommand(hook.command, payload, {
        cwd: config.cwd,
        ...(hook.timeout ? { timeoutS: hook.timeout } : {}),
        ...(signal ? { signal } : {}),
      });
      emit({ type: "hook", state: "done", event, command: hook.command });
      const said = readAnswer(event, run, hook.command, emit);
      outcome.context.push(...said.context);
      if (said.permission && RANK[said.permission] > (outcome.permission ? RANK[outcome.permission] : 0))
        outcome.permission = said.permission;
      if (said.stop) outcome.stop = said.stop;
      if (said.updatedInput) outcome.updatedInput = said.updatedInput;
      if (said.block) {
        outcome.block = said.block;
        return outcome;
      }
      if (outcome.stop) return outcome;
    }
  }
  return outcome;
}

function readAnswer(
  event: HookEvent,
  run: Awaited<ReturnType<typeof runHookCommand>>,
  command: string,
  emit: (e: RunEvent) => void,
): HookOutcome {
  const out: HookOutcome = { context: [] };
  const short = command.length > 60 ? `${command.slice(0, 59)}…` : command;
  if (run.code === null) {
    emit({ type: "notice", level: "warn", text: `${event} hook ${short} ${run.failure ?? "failed"}: not blocking.` });
    return out;
  }
  if (run.code === 2) {
    out.block = run.stderr.trim() || `blocked by the ${event} hook ${short} (exit 2)`;
    return out;
  }
  if (run.code !== 0) {
    const why = run.stderr.trim().split("\n").slice(0, 3).join(" ");
    emit({
      type: "notice",
      level: "warn",
      text: `${event} hook error: ${short} exited ${run.code}${why ? `: ${why}` : ""}`,
    });
    return out;
  }
  const json = parseJson(run.stdout);
  if (!json) {
    // Plain stdout of these two events is context for the model (Claude Code's rule).
    if ((event === "UserPromptSubmit" || event === "SessionStart") && run.stdout.trim())
      out.context.push(run.stdout.trim());
    return out;
  }
  if (typeof json.systemMessage === "string") emit({ type: "notice", level: "info", text: json.systemMessage });
  if (json.continue === false)
    out.stop = typeof json.stopReason === "string" ? json.stopReason : `a ${event} hook stopped the run`;
  const reason = typeof json.reason === "string" ? json.reason : undefined;
  if (json.decision === "block") out.block = reason ?? `blocked by the ${event} hook ${short}`;
  // Claude Code's older PreToolUse answers: "approve" and "block".
  if (json.decision === "approve") out.permission = "allow";
  const specific =
    typeof json.hookSpecificOutput === "object" && json.hookSpecificOutput !== null
      ? (json.hookSpecificOutput as Record<string, unknown>)
      : {};
  const decision = specific.permissionDecision;
  if (decision === "allow" || decision === "ask" || decision === "deny") out.permission = decision;
  if (decision === "deny")
    out.block =
      typeof specific.permissionDecisionReason === "string"
        ? specific.permissionDecisionReason
        : `denied by the ${event} hook ${short}`;
  const updated = specific.updatedInput;
  if (event === "PreToolUse" && typeof updated === "object" && updated !== null && !Array.isArray(updated))
    out.updatedInput = updated as Record<string, unknown>;
  if (typeof specific.additionalContext === "string" && specific.additionalContext.trim())
    out.context.push(specific.additionalContext.trim());
  return out;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (!t.startsWith("{")) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Claude Code's Notification hook: the user is needed. Its matcher sees `notification_type`
 * (`permission_prompt` when a permission question waits, `idle_prompt` when the input has waited
 * for the user after an answer).
 */
export function runNotificationHooks(
  config: RunConfig,
  type: "permission_prompt" | "idle_prompt",
  message: string,
  emit: (e: RunEvent) => void,
  signal?: AbortSignal,
): Promise<HookOutcome> {
  return runHooks(config, "Notification", [type], { message, notification_type: type }, emit, signal);
}

/** Whether any hook is configured for the event (most runs have none: no work, no JSON). */
export function hasHooks(config: Pick<RunConfig, "hooks">, event: HookEvent): boolean {
  return (config.hooks?.[event]?.length ?? 0) > 0;
}

export type { HooksConfig };
