import type { Model } from "../model.js";
import { openRewind } from "./rewind.js";
import { shellToBackground } from "./jobs.js";
import type { Cmd, Key } from "../msg.js";
import { cancelRun } from "./run.js";
import { submitLine } from "./submit.js";
import { quit } from "./quit.js";
import { addEntry } from "./transcript.js";
import { applyDialogKey, wheelPermission } from "./dialog.js";
import { follow, scrollBy, scrollToTop } from "./scroll.js";
import { applyEdit, editActionFor } from "./input-edit.js";
import { cursorOnRow } from "../layout/input.js";
import { transcriptHeight } from "../layout/screen.js";
import { applyMenuKey } from "./menu.js";
import { applyPlanKey, cycleMode } from "./modes.js";
import { applySearchKey, remember, startSearch } from "./history.js";
import { putBack } from "./put-back.js";
import { collapsePaste, expandPasteAtCursor, expandPastes, isLargePaste } from "./paste.js";
import { pastedImageMentions } from "./pasted-path.js";

const WHEEL_LINES = 3;

/**
 * How long a first Ctrl+C waits for the second (Claude Code keeps its hint about this long;
 * Codex's QUIT_SHORTCUT_TIMEOUT is 1 s, short for a user who reads the hint first).
 */
export const EXIT_ARM_MS = 2000;

/** Keys are handled at once, never on the tick. */
export function applyKey(model: Model, key: Key, cmds: Cmd[]): void {
  const ctrlC = key.ctrl === true && key.name === "c";
  // Any other key takes the exit back: only two Ctrl+C in a row quit.
  if (!ctrlC) model.exitArm.armed = false;
  const escapeArmed = model.escapeArmed;
  model.escapeArmed = false;
  // A Tab waiting for the file index is for the input as it was: any other key takes it back.
  if (key.name !== "tab" || key.shift) model.tabPending = null;
  if (model.dialog) return applyDialogKey(model, model.dialog, key, cmds);
  if (applyPlanKey(model, key, cmds) || applySearchKey(model, key)) return;
  const menu = applyMenuKey(model, key);
  if (menu === "submit") return submit(model, cmds);
  if (menu) return;
  const page = Math.max(1, transcriptHeight(model) - 2);
  // Ctrl+E just after a collapsed paste opens it; elsewhere it is the end of the line.
  if (key.ctrl && key.name === "e" && expandPasteAtCursor(model, false)) return;
  // Ctrl+B while the model waits for a shell command sends it to the background (Claude Code's key);
  // otherwise it moves the cursor left.
  if (key.ctrl && key.name === "b" && shellToBackground(model, cmds)) return;
  const edit = editActionFor(key, model.input);
  if (edit) {
    model.input = applyEdit(model.input, edit);
    return;
  }
  if (key.ctrl) {
    switch (key.name) {
      case "c":
        if (model.run) return cancel(model, cmds);
        if (model.shell) return void cmds.push({ type: "shell-cancel" });
        if (model.input.text) return setInput(model, "", 0);
        return exitOrArm(model, cmds);
      case "d":
        if (!model.input.text) return quit(model, cmds);
        model.input = applyEdit(model.input, "delete-forward");
        return;
      // Ctrl+Enter is told apart from Enter by the kitty protocol or modifyOtherKeys.
      case "j":
      case "enter":
        return insert(model, "\n");
      case "z":
        return void cmds.push({ type: "suspend" });
      case "t":
        model.thinkingOpen = !model.thinkingOpen;
        return;
      case "r":
        return startSearch(model);
      case "g":
        return void cmds.push({ type: "edit-input", text: expandPastes(model.input.text, model.pastes) });
      case "o":
        model.toolOutputOpen = !model.toolOutputOpen;
        return;
      case "home":
        return scrollToTop(model);
      case "end":
        return follow(model);
      default:
        return;
    }
  }
  switch (key.name) {
    case "enter":
      // Shift+Enter: always a new line (where the terminal tells it from Enter).
      if (key.shift) return insert(model, "\n");
      // Alt+Enter: a new line, or during a run the message waits for the run's end.
      if (key.meta) return model.run ? submit(model, cmds, true) : insert(model, "\n");
      if (expandPasteAtCursor(model, true)) return;
      return submit(model, cmds);
    case "escape":
      if (model.run) cancel(model, cmds);
      if (model.shell) cmds.push({ type: "shell-cancel" });
      // Esc twice on an empty input while nothing runs: /rewind (Claude Code's keys).
      if (!model.run && !model.shell && model.input.text === "") {
        if (escapeArmed) openRewind(model);
        else model.escapeArmed = true;
      }
      return;
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
      return follow(model);
    case "tab":
      if (key.shift) return cycleMode(model, cmds);
      // An @ mention the file index has not answered yet: completed when it does.
      if (model.menu?.kind === "mention") model.tabPending = model.input.text;
      return;
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
  const pasted = text.replace(/\r\n?/g, "\n");
  // A dragged-in image arrives as its path: it attaches like `@path` (read when the line is sent).
  const images = pastedImageMentions(pasted, model.input.text.slice(0, model.input.cursor));
  if (images) return insert(model, images);
  insert(model, isLargePaste(pasted) ? collapsePaste(model, pasted) : pasted);
}

export function applyWheel(model: Model, direction: "up" | "down", lines = WHEEL_LINES): void {
  if (model.dialog?.kind === "picker") return;
  if (model.dialog?.kind === "permission") return wheelPermission(model, model.dialog, direction);
  scrollBy(model, direction === "up" ? lines : -lines);
}

function submit(model: Model, cmds: Cmd[], afterRun = false): void {
  const text = expandPastes(model.input.text, model.pastes);
  if (!text.trim()) return;
  remember(model, text, cmds);
  model.historyPos = null;
  model.draft = "";
  model.pastes = [];
  setInput(model, "", 0);
  if (!model.booted) {
    // Settings, session and skills are still loading (a few ms after the first frame).
    model.queued.push(text);
    return;
  }
  submitLine(model, text, cmds, afterRun);
}

function cancel(model: Model, cmds: Cmd[]): void {
  cancelRun(model, cmds);
  restoreQueued(model);
}

/**
 * Messages queued behind a run the user stopped are not sent after it (the user stopped for a
 * reason) and not dropped either: they go back into the input box, ahead of anything typed since.
 */
function restoreQueued(model: Model): void {
  // Messages sent to steer the run that it has not taken yet come back too, first (typed first).
  const steering = model.steering.splice(0).map((s) => s.text);
  const n = steering.length + model.queued.length;
  if (n === 0) return;
  putBack(model, [...steering, ...model.queued.splice(0)]);
  addEntry(model, {
    kind: "notice",
    level: "info",
    text: `${n === 1 ? "Your queued message is" : `Your ${n} queued messages are`} back in the input box: Enter sends ${n === 1 ? "it" : "them"}, or edit first.`,
  });
}

/** Ctrl+C on an empty, idle input: the first press arms the exit, a second one quits. */
function exitOrArm(model: Model, cmds: Cmd[]): void {
  if (model.exitArm.armed) return quit(model, cmds);
  const seq = model.exitArm.seq + 1;
  model.exitArm = { armed: true, seq };
  cmds.push({ type: "after", ms: EXIT_ARM_MS, msg: { type: "exit-disarm", seq } });
}

/** What Ctrl+G's editor gave back: the whole input, pastes already expanded in it. */
export function applyEditedInput(model: Model, text: string): void {
  model.pastes = [];
  model.historyPos = null;
  setInput(model, text, text.length);
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

function upOrHistory(model: Model): void {
  const above = cursorOnRow(model.input.text, model.input.cursor, model.width, -1);
  if (above !== null) return setCursor(model, above);
  // The last queued message comes back for editing (Codex does this); Enter queues it again.
  if (model.input.text === "" && model.historyPos === null && model.queued.length > 0) {
    const text = model.queued.pop()!;
    return setInput(model, text, text.length);
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
  const below = cursorOnRow(model.input.text, model.input.cursor, model.width, 1);
  if (below !== null) return setCursor(model, below);
  if (model.historyPos === null) return;
  if (model.historyPos < model.history.length - 1) {
    model.historyPos += 1;
    const text = model.history[model.historyPos]!;
    return setInput(model, text, text.length);
  }
  model.historyPos = null;
  setInput(model, model.draft, model.draft.length);
}
