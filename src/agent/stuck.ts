// Stuck-loop detection over the model calls of one user turn. Pure: the loop keeps the
// state, feeds it every model reply (a "step") and obeys the verdict.
//
// "The call" of a step is the canonical JSON of its whole list of tool calls (names and
// arguments, ids left out), so a step with several calls repeats only when all of them
// repeat together, in the same order.
//
// Rules are checked in this order, the first that fires wins:
// 1. the same call 3 steps in a row                         -> stop "stuck"
// 2. A B A B A B: two distinct calls alternating over 6 steps -> stop "stuck"
// 3. 2 unusable replies in a row (invalid arguments, unknown tool, empty, malformed)
//                                                           -> stop "stuck", suggest a larger model
// 4. web_search called 6 times in the turn                  -> stop "stuck"
// 5. the step cap (maxSteps model calls)                    -> stop "max-steps"
// 6. web_search called 3 times in the turn (once)           -> nudge: answer with what you have
// A step that only waits on running background commands (Step.waiting) is in no run of rules 1-2.
// A stop means: do not call the model again this turn. The loop should answer each call
// of the stopped step with a "not run" tool result, so no call is left without a result.

import type { ToolCall } from "../protocol/conversation.js";

export type Unusable = "invalid-args" | "unknown-tool" | "empty" | "malformed";

export interface Step {
  toolCalls: readonly Pick<ToolCall, "name" | "args">[];
  unusable?: Unusable;
  /**
   * Every call of the step reads a background command that still runs or has news (shell_output):
   * waiting on it is progress, not a loop, so the step breaks runs as a step without calls does.
   */
  waiting?: boolean;
}

export type StuckVerdict =
  | { kind: "ok" }
  | { kind: "nudge"; message: string }
  | { kind: "stop"; reason: "stuck" | "max-steps"; message: string };

interface SeenCall {
  key: string;
  label: string;
}

export interface StuckState {
  readonly steps: number;
  /** The calls of the latest steps, newest last (steps without calls break runs). */
  readonly recent: readonly (SeenCall | undefined)[];
  readonly webSearches: number;
  readonly nudged: boolean;
  readonly unusable: readonly Unusable[];
}

export const REPEAT_LIMIT = 3;
export const OSCILLATION_STEPS = 6;
/** The loop sends one corrective message after an unusable reply; a second in a row stops. */
export const UNUSABLE_LIMIT = 2;
export const WEB_SEARCH_NUDGE = 3;
export const WEB_SEARCH_STOP = 6;
export const DEFAULT_MAX_STEPS = 50;
export const LARGER_MODEL_HINT = "qwen2.5-coder:14b";

const UNUSABLE_TEXT: Record<Unusable, string> = {
  "invalid-args": "invalid tool arguments",
  "unknown-tool": "unknown tool",
  empty: "empty reply",
  malformed: "malformed tool call",
};

export function createStuckState(): StuckState {
  return { steps: 0, recent: [], webSearches: 0, nudged: false, unusable: [] };
}

export function observeStep(
  state: StuckState,
  step: Step,
  opts: { maxSteps?: number } = {},
): { state: StuckState; verdict: StuckVerdict } {
  const maxSteps = opts.maxSteps ?? DEFAULT_MAX_STEPS;
  const seen =
    step.toolCalls.length > 0 && !step.waiting
      ? { key: canonicalJson(step.toolCalls.map(callOf)), label: labelOf(step) }
      : undefined;
  const searches = step.toolCalls.filter((c) => c.name === "web_search").length;
  const next: StuckState = {
    steps: state.steps + 1,
    recent: [...state.recent, seen].slice(-OSCILLATION_STEPS),
    webSearches: state.webSearches + searches,
    nudged: state.nudged,
    unusable: step.unusable ? [...state.unusable, step.unusable] : [],
  };
  const verdict = judge(next, step, maxSteps);
  return { state: verdict.kind === "nudge" ? { ...next, nudged: true } : next, verdict };
}

function judge(s: StuckState, step: Step, maxSteps: number): StuckVerdict {
  const last = s.recent.slice(-REPEAT_LIMIT);
  if (last.length === REPEAT_LIMIT && last.every((c) => c !== undefined && c.key === last[0]!.key)) {
    const many = step.toolCalls.length > 1;
    return stop(
      `${last[0]!.label} ${many ? "were" : "was"} called ${REPEAT_LIMIT} times in a row with the same arguments.`,
    );
  }
  const osc = oscillation(s.recent);
  if (osc) {
    return stop(`the model went back and forth between ${osc[0]} and ${osc[1]} ${OSCILLATION_STEPS / 2} times each.`);
  }
  if (s.unusable.length >= UNUSABLE_LIMIT) {
    const kinds = [...new Set(s.unusable)].map((k) => UNUSABLE_TEXT[k]).join(", ");
    return stop(
      `the model gave ${s.unusable.length} unusable replies in a row (${kinds}). ` +
        `It may be too small for tool use: try a larger model, e.g. ${LARGER_MODEL_HINT} or larger, with /model.`,
    );
  }
  if (s.webSearches >= WEB_SEARCH_STOP) {
    return stop(`web_search was called ${s.webSearches} times in one turn.`);
  }
  const continues = step.toolCalls.length > 0 || step.unusable !== undefined;
  if (continues && s.steps >= maxSteps) {
    return {
      kind: "stop",
      reason: "max-steps",
      message: `Stopped: reached the limit of ${maxSteps} steps for one request.`,
    };
  }
  if (s.webSearches >= WEB_SEARCH_NUDGE && !s.nudged) {
    return {
      kind: "nudge",
      message:
        `You have searched the web ${s.webSearches} times for this request. Do not search again: ` +
        "answer the user now with what you have found, and say what is still uncertain.",
    };
  }
  return { kind: "ok" };
}

/** A B A B A B over the last 6 steps, A and B distinct: the labels of A and B. */
function oscillation(recent: readonly (SeenCall | undefined)[]): [string, string] | undefined {
  if (recent.length < OSCILLATION_STEPS) return undefined;
  const [a, b] = recent;
  if (!a || !b || a.key === b.key) return undefined;
  const alternates = recent.every((c, i) => c !== undefined && c.key === (i % 2 === 0 ? a.key : b.key));
  return alternates ? [a.label, b.label] : undefined;
}

function stop(why: string): StuckVerdict {
  return { kind: "stop", reason: "stuck", message: `Stopped: ${why}` };
}

function callOf(c: Pick<ToolCall, "name" | "args">): { name: string; args: Record<string, unknown> } {
  return { name: c.name, args: c.args };
}

const LABEL_ARGS_MAX = 120;

/** `read_file {"path":"a.txt"}`, several calls joined by " + ", long arguments cut. */
function labelOf(step: Step): string {
  return step.toolCalls
    .map((c) => {
      const args = canonicalJson(c.args);
      return `${c.name} ${args.length > LABEL_ARGS_MAX ? `${args.slice(0, LABEL_ARGS_MAX)}…` : args}`;
    })
    .join(" + ");
}

/** JSON with object keys sorted at every depth, so equal arguments give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(obj)
        .sort()
        .map((k) => [k, sortKeys(obj[k])]),
    );
  }
  return value;
}
