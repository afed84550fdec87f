import type { Dialog, Model, PermissionDialog, PickerItem } from "../model.js";
import { permissionLayout, permissionSeen } from "../layout/permission.js";
import { dialogRoom } from "../layout/screen.js";
import type { Cmd, Key } from "../msg.js";
import { newModel } from "../../protocol/session-facts.js";
import { cancelRun } from "./run.js";
import { plain } from "./plain.js";
import { addEntry } from "./transcript.js";
import { applyMcpTrustKey } from "./mcp-trust.js";
import { applyEngineOfferKey } from "./engine-offer.js";
import { chooseRewind } from "./rewind.js";

/**
 * The /model and /sessions pickers open on what is in use (marked "current"): Enter at once
 * keeps it, so a quick Enter never switches the model by accident.
 */
export function openPicker(model: Model, purpose: "model" | "session", items: PickerItem[]): void {
  if (items.length === 0) {
    const text = purpose === "model" ? "The server lists no models." : "No saved sessions yet.";
    addEntry(model, { kind: "notice", level: "warn", text });
    return;
  }
  const inUse = purpose === "model" ? model.config.model : model.sessionId;
  const marked = items.map((item) => ({ ...item, current: item.value === inUse }));
  model.dialog = {
    kind: "picker",
    purpose,
    title: purpose === "model" ? "Choose a model" : "Open a session",
    items: marked,
    selected: Math.max(
      0,
      marked.findIndex((item) => item.current),
    ),
  };
}

/** A dialog has the keyboard while it is open. */
export function applyDialogKey(model: Model, dialog: Dialog, key: Key, cmds: Cmd[]): void {
  if (dialog.kind === "permission") return applyPermissionKey(model, dialog, key, cmds);
  if (dialog.kind === "mcp-trust") return applyMcpTrustKey(model, dialog, key, cmds);
  if (dialog.kind === "engine-offer") return applyEngineOfferKey(model, dialog, key, cmds);
  const count = dialog.items.length;
  switch (key.name) {
    case "up":
      dialog.selected = count ? (dialog.selected - 1 + count) % count : 0;
      return;
    case "down":
      dialog.selected = count ? (dialog.selected + 1) % count : 0;
      return;
    case "escape":
      model.dialog = null;
      return;
    case "enter":
    case "s": {
      const item = dialog.items[dialog.selected];
      model.dialog = null;
      if (!item) return;
      // What is in use stays: Enter changes nothing, `s` only saves it as the default.
      if (item.current) {
        if (key.name === "s" && dialog.purpose === "model")
          cmds.push({ type: "save-config", keys: { model: item.value } });
        return;
      }
      if (dialog.purpose === "session") {
        cmds.push({ type: "open-session", idOrPrefix: item.value });
        return;
      }
      if (dialog.purpose !== "model") return chooseRewind(model, dialog.purpose, item.value, cmds);
      chooseModel(model, item.value, cmds);
      if (key.name === "s") cmds.push({ type: "save-config", keys: { model: item.value } });
      return;
    }
    default:
      if (key.ctrl && key.name === "c") model.dialog = null;
  }
}

/** A new model means a new num_ctx and capabilities: the next run asks /api/show again. */
export function chooseModel(model: Model, chosen: string, cmds: Cmd[]): void {
  // `embedded/<name>` from /model's engine rows: the engine runs it from now on.
  const name = chosen.startsWith("embedded/") ? chosen.slice("embedded/".length) : chosen;
  newModel(model.config, name, name !== chosen ? "embedded" : undefined);
  model.warm = false;
  // Resolve its context length and load it now, not when the next prompt is sent.
  cmds.push({ type: "worker", command: { type: "probe", config: plain(model.config) } });
  cmds.push({ type: "session-meta", fields: { model: name } });
  addEntry(model, { kind: "notice", level: "info", text: `Model: ${name} (used from the next request).` });
}

/** Lines one wheel notch scrolls the permission dialog. */
const DIALOG_WHEEL_LINES = 3;

/**
 * The permission dialog: it scrolls (the whole command or diff is reachable), the allow keys act
 * only once the last line has been on screen, and `e`/Tab denies with a reason for the model.
 */
function applyPermissionKey(model: Model, dialog: PermissionDialog, key: Key, cmds: Cmd[]): void {
  const answer = (decision: "once" | "always" | "deny", reason?: string, option?: AlwaysChoice) => {
    const always = option ? { rule: option.rule, scope: option.scope } : undefined;
    // The dialog belongs to the run going on (events of any other run never open one).
    if (model.run) {
      const runId = model.run.id;
      cmds.push({
        type: "worker",
        command: {
          type: "permission-reply",
          runId,
          id: dialog.id,
          decision,
          ...(reason ? { reason } : {}),
          ...(always ? { always } : {}),
        },
      });
    }
    // A project rule is also written to the project's settings (the worker keeps it for the session).
    if (option?.scope === "project") cmds.push({ type: "save-permission-rule", rule: option.rule });
    model.dialog = null;
    // The time the user took to answer is not the tool's: its clock goes on from where it stood.
    const waited = Math.max(0, model.now - dialog.openedAt);
    for (const e of model.entries) if (e.kind === "tool" && e.state === "running" && e.startedAt) e.startedAt += waited;
  };
  if (key.ctrl && key.name === "c") {
    answer("deny");
    cancelRun(model, cmds);
    return;
  }
  if (dialog.reason !== null) return applyReasonKey(dialog, key, answer);
  if (dialog.alwaysChoice !== null && dialog.alwaysOptions)
    return applyAlwaysKey(dialog, dialog.alwaysOptions, key, (o) => answer("always", undefined, o));
  const layout = permissionLayout(dialog, model.width, dialogRoom(model));
  const allow = (decision: "once" | "always") => {
    // Allowing unseen lines would approve what the user has not read: show the rest first.
    if (!permissionSeen(dialog, layout)) return scrollPermission(model, dialog, layout.viewport);
    answer(decision);
  };
  switch (key.name) {
    case "y":
    case "Y":
    case "enter":
      return allow("once");
    case "a":
    case "A":
      if (!dialog.alwaysOptions) return allow("always");
      if (!permissionSeen(dialog, layout)) return scrollPermission(model, dialog, layout.viewport);
      dialog.alwaysChoice = 0;
      return;
    case "n":
    case "N":
      return answer("deny");
    case "e":
    case "E":
    case "tab":
      dialog.reason = "";
      return;
    case "up":
      return scrollPermission(model, dialog, -1);
    case "down":
      return scrollPermission(model, dialog, 1);
    case "pageup":
      return scrollPermission(model, dialog, -layout.viewport);
    case "pagedown":
    case "space":
    case " ":
      return scrollPermission(model, dialog, layout.viewport);
    case "home":
      return scrollPermission(model, dialog, -layout.body.length);
    case "end":
      return scrollPermission(model, dialog, layout.body.length);
    case "escape":
      answer("deny");
      cancelRun(model, cmds);
      return;
    default:
      return;
  }
}

type AlwaysChoice = NonNullable<PermissionDialog["alwaysOptions"]>[number];

/** Choosing what `a` keeps: Up/Down or a digit, Enter; Esc goes back to the dialog's keys. */
function applyAlwaysKey(
  dialog: PermissionDialog,
  options: readonly AlwaysChoice[],
  key: Key,
  choose: (o: AlwaysChoice) => void,
): void {
  const at = dialog.alwaysChoice ?? 0;
  const digit = Number(key.name);
  if (Number.isInteger(digit) && digit >= 1 && digit <= options.length) return choose(options[digit - 1]!);
  switch (key.name) {
    case "up":
      dialog.alwaysChoice = (at - 1 + options.length) % options.length;
      return;
    case "down":
    case "tab":
      dialog.alwaysChoice = (at + 1) % options.length;
      return;
    case "enter":
      return choose(options[at]!);
    case "escape":
      dialog.alwaysChoice = null;
      return;
    default:
      return;
  }
}

/** Typing the reason: Enter denies with it, Esc goes back to the dialog's keys. */
function applyReasonKey(dialog: PermissionDialog, key: Key, answer: (decision: "deny", reason?: string) => void): void {
  const text = dialog.reason ?? "";
  switch (key.name) {
    case "enter":
      return answer("deny", text.trim() || undefined);
    case "escape":
      dialog.reason = null;
      return;
    case "backspace":
      dialog.reason = [...text].slice(0, -1).join("");
      return;
    case "space":
      dialog.reason = text + " ";
      return;
    default:
      if (!key.ctrl && !key.meta && [...key.name].length === 1) dialog.reason = text + key.name;
  }
}

/** Scrolls the permission dialog's body, clamped; reaching the last line unlocks the allow keys. */
export function scrollPermission(model: Model, dialog: PermissionDialog, delta: number): void {
  const layout = permissionLayout(dialog, model.width, dialogRoom(model));
  dialog.scroll = Math.max(0, Math.min(layout.maxScroll, dialog.scroll + delta));
  if (dialog.scroll >= layout.maxScroll) dialog.seenEnd = true;
}

/** The wheel scrolls an open permission dialog instead of the transcript. */
export function wheelPermission(model: Model, dialog: PermissionDialog, direction: "up" | "down"): void {
  scrollPermission(model, dialog, direction === "up" ? -DIALOG_WHEEL_LINES : DIALOG_WHEEL_LINES);
}
