// The one way a tool call goes from the model's reply to its result, for every driver (the TUI,
// `-p`, ACP, `mcp serve`), every tool and every sub-agent. Each question is decided once, in one
// named stage, in this order:
//   validate → filter → mode → rules → pre-hooks → approval → run → post-hooks → result
// A stage before `run` either passes the call on (maybe changed) or settles it with a result the
// model reads; the stages after `run` see the masked, truncated result and may add to it. To add a
// stage, put it in BEFORE_RUN or AFTER_RUN (and CALL_STAGES) where it belongs in that order.
import type { ImageAttachment, ToolCall, ToolDisplay } from "../protocol/conversation.js";
import type { PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { CallVerdict, ToolContext, ToolDef, ToolResult } from "../tools/types.js";
import { runGuarded, summarize, validateArgs, NOT_RUN_INTERRUPTED, type ArgsCheck } from "../tools/runner.js";
import { forModel, outputLimit } from "../tools/output.js";
import { maskSecrets } from "../safety/secrets.js";
import { projectSecretValues } from "../safety/secret-files.js";
import { decide } from "../context/permission-rules.js";
import { deniedByRule, editedPaths, PLAN_MODE_REFUSAL } from "./approval.js";
import { claudeToolName, hasHooks, runHooks, toolInput } from "./hooks/hooks.js";

export const CALL_STAGES = [
  "validate",
  "filter",
  "mode",
  "rules",
  "pre-hooks",
  "approval",
  "run",
  "post-hooks",
  "result",
] as const;
export type CallStage = (typeof CALL_STAGES)[number];

/** What every call of a step is decided against; read when the step's calls start. */
export interface CallEnv {
  tools: ToolDef[];
  config: RunConfig;
  /** The permission mode now (Shift+Tab may change it during the run). */
  mode: PermissionMode;
  /** A skill's allowed-tools for the rest of the run; undefined: every tool. */
  allowed?: string[];
  /** A hook's `continue: false`: the run ends after this step. */
  stop(reason: string): void;
}

/** A finished call: what the model reads (masked, truncated) and what the UI shows for it. */
export interface ToolOutcome {
  content: string;
  isError?: boolean;
  /** Absent for a call that never started (the UI showed no line for it). */
  display?: ToolDisplay;
  /** Images for the model, only when it reads them (config.seesImages). */
  images?: ImageAttachment[];
  /** The stage that settled the call without running its tool; undefined when the tool ran. */
  settledBy?: CallStage;
}

/** A call on its way: its tool and arguments, and what the stages so far decided for approval. */
interface Pending {
  call: ToolCall;
  tool: ToolDef;
  args: Record<string, unknown>;
  ctx: ToolContext;
  verdict: CallVerdict;
}

type Settled = { settled: ToolResult };
interface BeforeStage {
  name: CallStage;
  apply(p: Pending, env: CallEnv): Promise<Pending | Settled> | Pending | Settled;
}
interface AfterStage {
  name: CallStage;
  apply(p: Pending, result: ToolResult, env: CallEnv): Promise<ToolResult>;
}

const refuse = (content: string): Settled => ({ settled: { content, isError: true } });

// Plan mode: the model may look but not touch. delegate stays: its sub-agent's calls meet this
// same stage under the same mode.
const PLAN_MODE_ALLOWED: ReadonlySet<string> = new Set(["delegate"]);

const BEFORE_RUN: readonly BeforeStage[] = [
  {
    // A skill's allowed-tools: the model is still sent every tool (the prompt cache holds), and a
    // call outside the list is refused here.
    name: "filter",
    apply: (p, env) =>
      !env.allowed || env.allowed.includes(p.tool.name)
        ? p
        : refuse(
            `Refused: only these tools may be used for the rest of this run: ${env.allowed.join(", ") || "none"}.`,
          ),
  },
  {
    name: "mode",
    apply: (p, env) =>
      env.mode === "plan" && !p.tool.readOnly && !PLAN_MODE_ALLOWED.has(p.tool.name) ? refuse(PLAN_MODE_REFUSAL) : p,
  },
  {
    // deny > ask > allow (Claude Code's precedence); a deny holds in every mode, also for a read
    // tool that asks nobody. ask and allow go to approval as the call's verdict.
    name: "rules",
    apply: (p, env) => {
      const rule = decide(env.config.permissionRules ?? [], {
        tool: p.tool.name,
        args: p.args,
        cwd: p.ctx.cwd,
        ...(p.tool.name === "apply_patch" ? { paths: editedPaths(p.args) } : {}),
      });
      if (rule?.kind === "deny") return refuse(deniedByRule(rule));
      return rule
        ? { ...p, verdict: { ...p.verdict, rule: { kind: rule.kind, rule: rule.rule, source: rule.source } } }
        : p;
    },
  },
  { name: "pre-hooks", apply: preToolUse },
  {
    // The tool asks while it runs (only it can make the preview, a diff); what it asks goes to the
    // session's approver with this call's id and verdict.
    name: "approval",
    apply: (p) => ({
      ...p,
      ctx: {
        ...p.ctx,
        approve: (req, verdict) => p.ctx.approve({ ...req, callId: req.callId ?? p.call.id }, verdict ?? p.verdict),
      },
    }),
  },
];

const AFTER_RUN: readonly AfterStage[] = [{ name: "post-hooks", apply: postToolUse }];

async function preToolUse(p: Pending, env: CallEnv): Promise<Pending | Settled> {
  if (!hasHooks(env.config, "PreToolUse")) return p;
  const names = [p.tool.name, claudeToolName(p.tool.name)];
  const input = toolInput(env.config, p.tool.name, p.args);
  const said = await runHooks(env.config, "PreToolUse", names, input, p.ctx.emit, p.ctx.signal);
  if (said.stop !== undefined) {
    env.stop(said.stop);
    return refuse(`Not run: a PreToolUse hook stopped the run.`);
  }
  if (said.block) return refuse(`Blocked by a PreToolUse hook: ${said.block}`);
  let args = p.args;
  if (said.updatedInput) {
    // The hook's arguments replace the model's; they meet the same schema.
    const checked = validateArgs(p.tool, { ...p.args, ...said.updatedInput });
    if (!checked.ok) return refuse(`A PreToolUse hook's updatedInput is invalid: ${checked.error}`);
    args = checked.args;
  }
  const hook = said.permission === "allow" || said.permission === "ask" ? said.permission : undefined;
  return { ...p, args, verdict: hook ? { ...p.verdict, hook } : p.verdict };
}

async function postToolUse(p: Pending, result: ToolResult, env: CallEnv): Promise<ToolResult> {
  if (!hasHooks(env.config, "PostToolUse")) return result;
  const response = {
    content: result.content,
    is_error: result.isError === true,
    success: result.isError !== true,
    ...(result.path ? { filePath: result.path } : {}),
  };
  const names = [p.tool.name, claudeToolName(p.tool.name)];
  const input = { ...toolInput(env.config, p.tool.name, p.args), tool_response: response };
  const said = await runHooks(env.config, "PostToolUse", names, input, p.ctx.emit, p.ctx.signal);
  if (said.stop !== undefined) env.stop(said.stop);
  // The tool has run: a block can only tell the model (exit 2's stderr, `decision: "block"`'s reason).
  const notes = [...(said.block ? [`PostToolUse hook: ${said.block}`] : []), ...said.context];
  return notes.length ? { ...result, content: `${result.content}\n\n${notes.join("\n")}` } : result;
}

/** The run stage's masking and truncation: what the model reads of a tool's result. */
function forTheModel(raw: ToolResult, ctx: ToolContext): ToolResult {
  const content = forModel(raw.content, outputLimit(ctx.config), ctx.cwd, ctx.config.addDirs);
  const diff = raw.diff
    ? maskSecrets(raw.diff, process.env, projectSecretValues(ctx.cwd, ctx.config.addDirs))
    : undefined;
  return { ...raw, content, diff };
}

/** Runs one call through every stage: never throws; emits tool-start, then tool-end with the call's display. */
export async function runCall(call: ToolCall, env: CallEnv, ctx: ToolContext): Promise<ToolOutcome> {
  // validate: unknown tools and bad arguments still get a line in the UI, so every call is accounted for.
  const tool = env.tools.find((t) => t.name === call.name);
  const checked: ArgsCheck = tool
    ? validateArgs(tool, call.args)
    : {
        ok: false,
        error: `Error: unknown tool "${call.name}". Available tools: ${env.tools.map((t) => t.name).join(", ")}.`,
      };
  const label = tool && checked.ok ? safeLabel(tool, checked.args) : call.name;
  // Arguments that came as a JSON string are shown parsed; the UI event always carries an object.
  const shownArgs = checked.ok ? checked.args : isRecord(call.args) ? call.args : { arguments: String(call.args) };
  ctx.emit({ type: "tool-start", id: call.id, name: call.name, args: shownArgs, label });
  if (!tool || !checked.ok)
    return result(call, label, { content: checked.ok ? "" : checked.error, isError: true }, ctx, "validate");

  let p: Pending = { call, tool, args: checked.args, ctx, verdict: {} };
  for (const stage of BEFORE_RUN) {
    const next = await stage.apply(p, env);
    if ("settled" in next) return result(call, label, forTheModel(next.settled, ctx), ctx, stage.name);
    p = next;
  }
  let done = forTheModel(await runGuarded(tool, p.args, p.ctx), ctx);
  for (const stage of AFTER_RUN) done = await stage.apply(p, done, env);
  return result(call, label, done, ctx);
}

/** The result stage: the call's display, its tool-end event, and what the model reads. */
function result(call: ToolCall, label: string, raw: ToolResult, ctx: ToolContext, settledBy?: CallStage): ToolOutcome {
  const { content, diff } = raw;
  const display: ToolDisplay = { label, ok: !raw.isError, summary: summarize(raw) };
  if (diff) {
    display.diff = diff;
    display.path = raw.path ?? "";
  } else if (content) {
    // What the tool printed, as the model read it, for Ctrl+O (a change shows its diff instead).
    display.output = content;
    if (raw.lang) display.outputLang = raw.lang;
  }
  ctx.emit({ type: "tool-end", id: call.id, display });
  const outcome: ToolOutcome = raw.isError ? { content, isError: true, display } : { content, display };
  if (settledBy) outcome.settledBy = settledBy;
  // Stored in the session only when a model will read them: base64 is large.
  if (raw.images?.length && ctx.config.seesImages) outcome.images = raw.images;
  return outcome;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function safeLabel(tool: ToolDef, args: Record<string, unknown>): string {
  try {
    return tool.label(args);
  } catch {
    return tool.name;
  }
}

/**
 * Runs a step's calls; results come back in call order. Consecutive concurrent-safe calls run
 * together, the others one at a time. Once the signal aborts, calls not yet started are not
 * run and get NOT_RUN_INTERRUPTED (no line in the UI, a result for the model all the same).
 */
export async function runCalls(
  calls: ToolCall[],
  env: CallEnv,
  makeCtx: (call: ToolCall) => ToolContext,
): Promise<ToolOutcome[]> {
  const results: ToolOutcome[] = new Array(calls.length);
  const concurrentSafe = (call: ToolCall): boolean =>
    env.tools.find((t) => t.name === call.name)?.concurrentSafe === true;
  const runOne = async (index: number): Promise<void> => {
    const call = calls[index]!;
    const ctx = makeCtx(call);
    results[index] = ctx.signal.aborted
      ? { content: NOT_RUN_INTERRUPTED, isError: true }
      : await runCall(call, env, ctx);
  };
  let i = 0;
  while (i < calls.length) {
    let end = i + 1;
    if (concurrentSafe(calls[i]!)) {
      while (end < calls.length && concurrentSafe(calls[end]!)) end++;
    }
    const batch: Promise<void>[] = [];
    for (let k = i; k < end; k++) batch.push(runOne(k));
    await Promise.all(batch);
    i = end;
  }
  return results;
}

/** One call under its context's own config and mode, every tool allowed (tests, and tools run outside a run). */
export function runToolCall(call: ToolCall, tools: ToolDef[], ctx: ToolContext): Promise<ToolOutcome> {
  return runCall(call, { tools, config: ctx.config, mode: ctx.config.permissionMode, stop: () => {} }, ctx);
}
