// Claude Code's `statusLine.command`: which state the command is shown, and when to ask for it
// again. Pure: the command runs in ui/runtime/status-line.ts (throttled, off the key path); its
// answer comes back as status-line-text or status-line-failed.
import { priceOf } from "../../context/prices.js";
import type { StatusLineInput } from "../../protocol/status-line.js";
import type { Model } from "../model.js";
import type { Cmd } from "../msg.js";
import { addEntry } from "./transcript.js";

/** The session as the command reads it. No clock in it: it changes when the session does. */
export function statusLineInput(model: Model): StatusLineInput {
  const { config, usage, stats } = model;
  const byModel = Object.entries(stats.byModel);
  const local = config.provider === "ollama";
  const prices = byModel.map(([name, s]) => priceOf(name, s.tokensIn, s.tokensOut));
  const known = local || prices.every((p) => p !== undefined);
  const dollars = local ? 0 : prices.reduce<number>((sum, p) => sum + (p ?? 0), 0);
  const used = usage.promptTokens + usage.completionTokens;
  const window = config.numCtx;
  const percent = window > 0 ? Math.min(100, Math.round((used / window) * 100)) : 0;
  return {
    hook_event_name: "Status",
    session_id: model.sessionId,
    cwd: config.cwd,
    model: { id: config.model, display_name: config.model },
    workspace: {
      current_dir: config.cwd,
      project_dir: config.cwd,
      ...(config.addDirs?.length ? { added_dirs: [...config.addDirs] } : {}),
    },
    output_style: { name: "default" },
    cost: {
      ...(known ? { total_cost_usd: Number(dollars.toFixed(6)) } : {}),
      total_api_duration_ms: byModel.reduce((sum, [, s]) => sum + s.ms, 0),
    },
    ...(window > 0
      ? {
          context_window: {
            context_window_size: window,
            total_input_tokens: stats.tokensIn,
            total_output_tokens: stats.tokensOut,
            used_percentage: percent,
            remaining_percentage: 100 - percent,
          },
        }
      : {}),
  };
}

/**
 * After every Msg: when a status command is configured and what it would read has changed, ask
 * for it again (the runtime runs at most one every ~300 ms, the newest state last).
 */
export function requestStatusLine(m: Model, cmds: Cmd[]): void {
  const command = m.config.statusLine?.command;
  if (!command || !m.booted) {
    m.statusCommand.asked = "";
    return;
  }
  const input = statusLineInput(m);
  const key = JSON.stringify([command, input]);
  if (key === m.statusCommand.asked) return;
  m.statusCommand.asked = key;
  cmds.push({ type: "status-line", command, input });
}

/** The command's first line: it replaces the right part of the status line. */
export function statusLineText(m: Model, text: string): void {
  m.statusCommand.text = text === "" ? null : text;
}

/** A command that fails leaves agent0's own status line, and says so once per launch. */
export function statusLineFailed(m: Model, error: string): void {
  m.statusCommand.text = null;
  if (m.statusCommand.failedTold) return;
  m.statusCommand.failedTold = true;
  addEntry(m, {
    kind: "notice",
    level: "warn",
    text: `The status line command failed (${error}); the usual status line is shown.`,
  });
}
