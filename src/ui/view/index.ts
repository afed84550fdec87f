import { sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { padLine, truncateLine } from "../../render/wrap.js";
import type { Dialog, Model } from "../model.js";
import { inputRows, transcriptHeight } from "../layout/screen.js";
import { inputView } from "./input.js";
import { linesBelow, visibleTranscript } from "../layout/transcript.js";
import { permissionView } from "../layout/permission.js";
import { mcpTrustView } from "./mcp-trust.js";
import { menuLines } from "./menu.js";
import { pinnedLines } from "../layout/pinned.js";
import { modeRule, modeWord } from "./modes.js";
import { searchInputView } from "./history.js";

/** Everything painted, as plain strings: runtime.ts is the only code that touches blessed. */
export interface Frame {
  transcript: string[];
  status: string;
  rule: string;
  input: string[];
  cursor: { row: number; col: number };
  dialog?: { title: string; lines: string[]; width: number; height: number };
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** view(model) -> Frame: pure; only the visible lines are produced. */
export function view(model: Model): Frame {
  const width = model.width;
  const tHeight = transcriptHeight(model);
  const pinned = pinnedLines(model, width);
  const transcript = [...visibleTranscript(model, width, tHeight), ...pinned];
  const { lines, cursor } = model.historySearch ? searchInputView(model, width) : inputView(model, inputRows(model));
  const frame: Frame = {
    transcript,
    status: statusLine(model, width, tHeight),
    rule: modeRule(model, width),
    input: [...lines, ...menuLines(model, width)],
    cursor: { row: tHeight + pinned.length + 2 + cursor.row, col: cursor.col },
  };
  if (model.dialog) frame.dialog = dialogView(model.dialog, width, model.height);
  return frame;
}

function statusLine(model: Model, width: number, tHeight: number): string {
  const parts: string[] = [];
  if (model.run) {
    const spin = SPINNER[Math.floor(model.now / 100) % SPINNER.length]!;
    const secs = Math.max(0, Math.floor((model.now - model.run.startedAt) / 1000));
    parts.push(theme.tool(`${spin} ${phaseLabel(model)} ${secs}s`));
  } else if (model.loadingModel) {
    const spin = SPINNER[Math.floor(model.now / 100) % SPINNER.length]!;
    parts.push(theme.tool(`${spin} loading the model…`));
  } else if (model.shell) {
    const spin = SPINNER[Math.floor(model.now / 100) % SPINNER.length]!;
    parts.push(theme.tool(`${spin} running !${sanitizeLine(model.shell.command)}`));
  } else {
    parts.push(theme.dim("idle"));
  }
  parts.push(sanitizeLine(model.config.model) || theme.dim("no model"));
  // The default mode is named on the rule only; the others here too, in their colour.
  if (model.config.permissionMode !== "ask") parts.push(modeWord(model.config.permissionMode));
  if (model.config.sandbox === "workspace-write") parts.push(theme.ok("sandboxed"));
  if (model.unsaved) parts.push(theme.err("not saved"));
  if (model.queued.length) parts.push(theme.dim(`${model.queued.length} queued`));
  if (model.anchor) {
    const below = linesBelow(model, width, tHeight);
    const fresh = below - model.anchor.below;
    parts.push(
      theme.warn(fresh > 0 ? `↓ ${fresh} new lines — End to follow` : `↑ ${below} lines below — End to follow`),
    );
  }
  // The context in use (the last request's prompt and its answer) against the window, then
  // everything this session has spent.
  const used = model.usage.promptTokens + model.usage.completionTokens;
  const window = model.config.numCtx;
  if (window > 0) {
    const frac = Math.min(1, used / window);
    const filled = Math.round(frac * 10);
    const bar = "▰".repeat(filled) + "▱".repeat(10 - filled);
    const style = frac > 0.7 ? theme.warn : theme.dim;
    parts.push(style(`${bar} ${formatTokens(used)} of ${formatTokens(window)} (${Math.round(frac * 100)}%)`));
  } else if (used > 0) {
    parts.push(theme.dim(`${formatTokens(used)} in context`));
  }
  parts.push(theme.dim(`${formatTokens(model.usage.totalTokens)} tokens this session`));
  return truncateLine(parts.join(theme.dim(" · ")), width);
}

function phaseLabel(model: Model): string {
  const run = model.run!;
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

function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n);
}

function dialogView(dialog: Dialog, width: number, height: number): NonNullable<Frame["dialog"]> {
  // On a very narrow screen the dialog takes the whole width rather than overflow it.
  const w = Math.min(width, Math.max(20, Math.min(width - 4, 100)));
  const inner = w - 4;
  const maxBody = Math.max(3, height - 8);
  if (dialog.kind === "permission") return permissionView(dialog, width, height);
  if (dialog.kind === "mcp-trust") return mcpTrustView(dialog, w, maxBody);
  const visible = Math.min(dialog.items.length, maxBody);
  const first = Math.max(0, Math.min(dialog.selected - Math.floor(visible / 2), dialog.items.length - visible));
  const lines = dialog.items.slice(first, first + visible).map((item, i) => {
    const selected = first + i === dialog.selected;
    const text = `${selected ? "›" : " "} ${sanitizeLine(item.label)}${item.detail ? theme.dim("  " + sanitizeLine(item.detail)) : ""}`;
    return padLine(truncateLine(selected ? theme.user(text) : text, inner), inner);
  });
  return { title: ` ${sanitizeLine(dialog.title)} `, lines, width: w, height: lines.length + 2 };
}
