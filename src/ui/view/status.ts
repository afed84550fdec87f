// The status line as data: segments in the order they are shown, each with a priority and its
// forms from longest to shortest. When the line is too wide, the least important segment
// (rightmost on a tie) takes its next shorter form, or goes; a `keep` segment never goes. New
// items (a background job count, a running hook, a user's status command) are one more segment.
import { keepOnlySgr, sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { displayWidth, truncateLine } from "../../render/wrap.js";
import type { Model } from "../model.js";
import { modeWord } from "./modes.js";

export interface StatusSegment {
  /** Higher stays longer. */
  priority: number;
  /** Styled forms, longest first; the shortest form of a `keep` segment is never dropped. */
  forms: string[];
  keep?: boolean;
}

/** Priorities, highest first: what a user with a small window must still see. */
export const STATUS_PRIORITY = {
  exitHint: 100,
  context: 90,
  mode: 90,
  state: 80,
  unsaved: 75,
  jobs: 70,
  scroll: 60,
  model: 50,
  command: 50,
  sandbox: 40,
  sessionTokens: 20,
} as const;

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SEPARATOR = " · ";

/** The segments of the status line now, in the order they are shown. */
export function statusSegments(model: Model, linesBelow: () => number): StatusSegment[] {
  const P = STATUS_PRIORITY;
  const segs: StatusSegment[] = [];
  if (model.exitArm.armed) {
    segs.push({ priority: P.exitHint, keep: true, forms: [theme.warn("Press Ctrl+C again to exit")] });
  }
  segs.push(stateSegment(model));
  // The config's status command, when it answered, stands in for the model, context and token figures.
  const own = model.config.statusLine && model.statusCommand.text !== null ? model.statusCommand.text : null;
  const name = sanitizeLine(model.config.model);
  if (own === null) segs.push({ priority: P.model, forms: [name || theme.dim("no model")] });
  // The default mode is named on the rule only; the others here too, in their colour.
  if (model.config.permissionMode !== "ask")
    segs.push({ priority: P.mode, keep: true, forms: [modeWord(model.config.permissionMode)] });
  if (model.config.sandbox === "workspace-write") segs.push({ priority: P.sandbox, forms: [theme.ok("sandboxed")] });
  if (model.unsaved) segs.push({ priority: P.unsaved, keep: true, forms: [theme.err("not saved")] });
  const jobs = model.jobs.filter((j) => j.state === "running").length;
  if (jobs > 0) {
    const forms = [`${jobs} background ${jobs === 1 ? "command" : "commands"}`, `${jobs} bg`];
    segs.push({ priority: P.jobs, forms: forms.map((f) => theme.tool(f)) });
  }
  if (model.anchor) {
    const below = linesBelow();
    const fresh = below - model.anchor.below;
    const forms =
      fresh > 0
        ? [`↓ ${fresh} new lines — End to follow`, `↓ ${fresh} new lines`, `↓ ${fresh} new`]
        : [`↑ ${below} lines below — End to follow`, `↑ ${below} below`];
    segs.push({ priority: P.scroll, forms: forms.map((f) => theme.warn(f)) });
  }
  if (own !== null) {
    segs.push(commandSegment(own));
    return segs;
  }
  const context = contextSegment(model);
  if (context) segs.push(context);
  const total = formatTokens(model.usage.totalTokens);
  segs.push({
    priority: P.sessionTokens,
    forms: [`${total} tokens this session`, `${total} this session`].map((f) => theme.dim(f)),
  });
  return segs;
}

/** Forms of the command's answer, cut shorter as room runs out. */
const COMMAND_CUTS = [60, 40, 24, 12];

/**
 * The status command's line as shown: SGR colours kept, any other control or escape made visible
 * (a command's output must not move the cursor or retitle the window), tabs as spaces, and the
 * colours ended with it.
 */
function commandSegment(text: string): StatusSegment {
  const safe = keepOnlySgr(text.replace(/\t/g, " "));
  const close = (s: string) => (s.includes("\x1b[") ? `${s}\x1b[0m` : s);
  const width = displayWidth(safe);
  const cuts = COMMAND_CUTS.filter((n) => n < width).map((n) => close(truncateLine(safe, n)));
  return { priority: STATUS_PRIORITY.command, forms: [close(safe), ...cuts] };
}

/** What the app is doing: its phase and how long it has taken; at the least the spinner. */
function stateSegment(model: Model): StatusSegment {
  const spin = SPINNER[Math.floor(model.now / 100) % SPINNER.length]!;
  const forms = (...texts: string[]) => ({
    priority: STATUS_PRIORITY.state,
    keep: true,
    forms: texts.map((t) => theme.tool(t)),
  });
  if (model.run) {
    const secs = `${Math.max(0, Math.floor((model.now - model.run.startedAt) / 1000))}s`;
    const phase = phaseLabel(model);
    const short = phase.length > 20 ? `${phase.slice(0, 19)}…` : phase;
    return forms(`${spin} ${phase} ${secs}`, `${spin} ${short} ${secs}`, `${spin} ${secs}`, spin);
  }
  if (model.loadingModel) return forms(`${spin} loading the model…`, `${spin} loading…`, spin);
  if (model.shell) {
    const command = sanitizeLine(model.shell.command);
    return forms(`${spin} running !${command}`, `${spin} !${command.slice(0, 12)}…`, spin);
  }
  return { priority: STATUS_PRIORITY.state, keep: true, forms: [theme.dim("idle")] };
}

/** The context in use (the last request's prompt and its answer) against the window. */
function contextSegment(model: Model): StatusSegment | undefined {
  const used = model.usage.promptTokens + model.usage.completionTokens;
  // A window no server reported is not shown as a figure it is not (the worker learns it later).
  const window = model.config.windowUnknown ? 0 : model.config.numCtx;
  if (window > 0) {
    const frac = Math.min(1, used / window);
    const filled = Math.round(frac * 10);
    const bar = "▰".repeat(filled) + "▱".repeat(10 - filled);
    const style = frac > 0.7 ? theme.warn : theme.dim;
    const figures = `${formatTokens(used)} of ${formatTokens(window)} (${Math.round(frac * 100)}%)`;
    return {
      priority: STATUS_PRIORITY.context,
      keep: true,
      forms: [
        `${bar} ${figures}`,
        figures,
        `${formatTokens(used)}/${formatTokens(window)} ${Math.round(frac * 100)}%`,
      ].map((f) => style(f)),
    };
  }
  if (used > 0)
    return { priority: STATUS_PRIORITY.context, keep: true, forms: [theme.dim(`${formatTokens(used)} in context`)] };
  return undefined;
}

function phaseLabel(model: Model): string {
  const run = model.run!;
  // A hook command running (hooks run one after another, each with its time-out).
  if (run.hook) return sanitizeLine(`hook ${run.hook.event}: ${run.hook.command}`);
  if (run.writing && run.phase !== "tool") return sanitizeLine(`writing a ${run.writing} call…`);
  switch (run.phase) {
    case "loading":
      return model.warm ? "thinking…" : "loading model…";
    case "thinking":
      return "thinking…";
    case "answering":
      return "answering…";
    case "tool": {
      if (model.dialog?.kind === "permission") return `waiting for your answer: ${sanitizeLine(model.dialog.tool)}`;
      const running = [...model.entries].reverse().find((e) => e.kind === "tool" && e.state === "running");
      if (!running || running.kind !== "tool") return "running a tool";
      return sanitizeLine(running.progress ? `${running.label} · ${running.progress}` : running.label);
    }
  }
}

export function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n);
}

/**
 * Lays the segments out in `width` columns: while too wide, the least important segment that can
 * still give way (the rightmost of equals) takes its next form or goes. If even the kept
 * segments' shortest forms do not fit, the line is cut at the edge.
 */
export function fitStatus(segments: StatusSegment[], width: number): string {
  const form = segments.map(() => 0);
  const gone = segments.map(() => false);
  const separator = theme.dim(SEPARATOR);
  const line = () =>
    segments
      .map((s, i) => (gone[i] ? undefined : s.forms[form[i]!]))
      .filter((t): t is string => t !== undefined)
      .join(separator);
  let text = line();
  while (displayWidth(text) > width) {
    let pick = -1;
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i]!;
      const canGive = !gone[i] && (form[i]! < s.forms.length - 1 || !s.keep);
      if (canGive && (pick === -1 || s.priority <= segments[pick]!.priority)) pick = i;
    }
    if (pick === -1) break;
    if (form[pick]! < segments[pick]!.forms.length - 1) form[pick]!++;
    else gone[pick] = true;
    text = line();
  }
  return truncateLine(text, width);
}
