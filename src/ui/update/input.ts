import type { Model } from "../model.js";
import type { Cmd, Key } from "../msg.js";
import { startRun } from "./run.js";
import { keepPartialAnswer } from "./agent.js";
import { addEntry } from "./transcript.js";
import { runSlash } from "./slash.js";
import { applyDialogKey, wheelPermission } from "./dialog.js";
import { scrollBy, scrollToTop } from "./scroll.js";
import { transcriptHeight } from "../layout.js";

const WHEEL_LINES = 3;

/** Keys are handled at once, never on the tick. */
export function applyKey(model: Model, key: Key, cmds: Cmd[]): void {
  if (model.dialog) return applyDialogKey(model, model.dialog, key, cmds);
  const page = Math.max(1, transcriptHeight(model) - 2);
  if (key.ctrl) {
    switch (key.name) {
      case "c":
        if (model.run) return cancel(model, cmds);
        if (model.input.text) return setInput(model, "", 0);
        return quit(model, cmds);
      case "d":
        if (!model.input.text) return quit(model, cmds);
        return deleteForward(model);
      case "j":
        return insert(model, "\n");
      case "t":
        model.thinkingOpen = !model.thinkingOpen;
        return;
      case "a":
        return setCursor(model, lineStart(model));
      case "e":
        return setCursor(model, lineEnd(model));
      case "u": {
        const s = lineStart(model);
        return setInput(model, model.input.text.slice(0, s) + model.input.text.slice(model.input.cursor), s);
      }
      case "k": {
        const e = lineEnd(model);
        return setInput(
          model,
          model.input.text.slice(0, model.input.cursor) + model.input.text.slice(e),
          model.input.cursor,
        );
      }
      case "w":
        return deleteWord(model);
      default:
        return;
    }
  }
  switch (key.name) {
    case "enter":
      if (key.meta) return insert(model, "\n");
      return submit(model, cmds);
    case "escape":
      if (model.run) cancel(model, cmds);
      return;
    case "backspace":
      if (key.meta) return deleteWord(model);
      return deleteBack(model);
    case "delete":
      return deleteForward(model);
    case "left":
      return setCursor(model, Math.max(0, model.input.cursor - 1));
    case "right":
      return setCursor(model, Math.min(model.input.text.length, model.input.cursor + 1));
    case "up":
      return upOrHistory(model);
    case "down":
      return downOrHistory(model);
    case "pageup":
      return scrollBy(model, page);
    case "pagedown":
      return scrollBy(model, -page);
    case "home":
      return scrollToTop(model);
    case "end":
      model.scroll = 0;
      return;
    case "tab":
      return complete(model);
    default:
      if (!key.meta && [...key.name].length === 1) insert(model, key.name);
  }
}

export function applyPaste(model: Model, text: string): void {
  // A reason being typed in the permission dialog takes a paste as one line.
  if (model.dialog?.kind === "permission" && model.dialog.reason !== null) {
    model.dialog.reason += text.replace(/[\r\n]+/g, " ");
    return;
  }
  if (model.dialog) return;
  insert(model, text.replace(/\r\n?/g, "\n"));
}

export function applyWheel(model: Model, direction: "up" | "down"): void {
  if (model.dialog?.kind === "picker") return;
  if (model.dialog?.kind === "permission") return wheelPermission(model, model.dialog, direction);
  scrollBy(model, direction === "up" ? WHEEL_LINES : -WHEEL_LINES);
}

function submit(model: Model, cmds: Cmd[]): void {
  const text = model.input.text;
  if (!text.trim()) return;
  if (model.history[model.history.length - 1] !== text) model.history.push(text);
  model.historyPos = null;
  model.draft = "";
  setInput(model, "", 0);
  if (!model.booted) {
    // Settings, session and skills are still loading (a few ms after the first frame).
    model.queued.push(text);
    return;
  }
  submitLine(model, text, cmds);
}

/** A line the user sent: a slash command or skill, or a prompt (queued while a run goes). */
export function submitLine(model: Model, text: string, cmds: Cmd[]): void {
  if (text.trimStart().startsWith("/")) return runSlash(model, text.trim(), cmds);
  if (model.run) {
    model.queued.push(text);
    addEntry(model, { kind: "notice", level: "info", text: "Queued: it will be sent when the current answer ends." });
    return;
  }
  startRun(model, text, cmds);
}

function cancel(model: Model, cmds: Cmd[]): void {
  cmds.push({ type: "worker", command: { type: "cancel" } });
  model.queued = [];
}

export function quit(model: Model, cmds: Cmd[]): void {
  if (model.run) {
    cmds.push({ type: "worker", command: { type: "cancel" } });
    keepPartialAnswer(model, cmds);
  }
  model.quitting = true;
  cmds.push({ type: "quit" });
}

function setInput(model: Model, text: string, cursor: number): void {
  model.input = { text, cursor };
}

function setCursor(model: Model, cursor: number): void {
  model.input.cursor = cursor;
}

function insert(model: Model, s: string): void {
  const { text, cursor } = model.input;
  setInput(model, text.slice(0, cursor) + s + text.slice(cursor), cursor + s.length);
}

function deleteBack(model: Model): void {
  const { text, cursor } = model.input;
  if (cursor === 0) return;
  const step = prevCharLength(text, cursor);
  setInput(model, text.slice(0, cursor - step) + text.slice(cursor), cursor - step);
}

function deleteForward(model: Model): void {
  const { text, cursor } = model.input;
  if (cursor >= text.length) return;
  const step = text.codePointAt(cursor)! > 0xffff ? 2 : 1;
  setInput(model, text.slice(0, cursor) + text.slice(cursor + step), cursor);
}

function deleteWord(model: Model): void {
  const { text, cursor } = model.input;
  const before = text.slice(0, cursor).replace(/\s*\S*$/, "");
  setInput(model, before + text.slice(cursor), before.length);
}

function prevCharLength(text: string, cursor: number): number {
  const code = text.charCodeAt(cursor - 1);
  return code >= 0xdc00 && code <= 0xdfff && cursor >= 2 ? 2 : 1;
}

function lineStart(model: Model): number {
  return model.input.text.lastIndexOf("\n", model.input.cursor - 1) + 1;
}

function lineEnd(model: Model): number {
  const i = model.input.text.indexOf("\n", model.input.cursor);
  return i === -1 ? model.input.text.length : i;
}

function upOrHistory(model: Model): void {
  const start = lineStart(model);
  if (start > 0) {
    const col = model.input.cursor - start;
    const prevStart = model.input.text.lastIndexOf("\n", start - 2) + 1;
    return setCursor(model, Math.min(prevStart + col, start - 1));
  }
  if (model.history.length === 0) return;
  if (model.historyPos === null) {
    model.draft = model.input.text;
    model.historyPos = model.history.length - 1;
  } else if (model.historyPos > 0) {
    model.historyPos -= 1;
  }
  const text = model.history[model.historyPos]!;
  setInput(model, text, text.length);
}

function downOrHistory(model: Model): void {
  const end = lineEnd(model);
  if (end < model.input.text.length) {
    const col = model.input.cursor - lineStart(model);
    const nextEnd = model.input.text.indexOf("\n", end + 1);
    return setCursor(model, Math.min(end + 1 + col, nextEnd === -1 ? model.input.text.length : nextEnd));
  }
  if (model.historyPos === null) return;
  if (model.historyPos < model.history.length - 1) {
    model.historyPos += 1;
    const text = model.history[model.historyPos]!;
    return setInput(model, text, text.length);
  }
  model.historyPos = null;
  setInput(model, model.draft, model.draft.length);
}

function complete(model: Model): void {
  const { text, cursor } = model.input;
  if (!text.startsWith("/") || text.slice(0, cursor).includes(" ")) return;
  const prefix = text.slice(1, cursor);
  const matches = model.completions.filter((n) => n.startsWith(prefix));
  if (matches.length === 0) return;
  if (matches.length === 1) return setInput(model, `/${matches[0]} ` + text.slice(cursor), matches[0]!.length + 2);
  let common = matches[0]!;
  for (const m of matches) while (!m.startsWith(common)) common = common.slice(0, -1);
  if (common.length > prefix.length) return setInput(model, `/${common}` + text.slice(cursor), common.length + 1);
  addEntry(model, { kind: "notice", level: "info", text: matches.map((m) => `/${m}`).join("  ") });
}
