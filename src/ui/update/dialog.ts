import type { Dialog, Model } from "../model.js";
import type { Cmd, Key } from "../msg.js";
import { plain } from "./run.js";
import { addEntry } from "./transcript.js";
import { applyMcpTrustKey } from "./mcp.js";

/** A dialog has the keyboard while it is open. */
export function applyDialogKey(model: Model, dialog: Dialog, key: Key, cmds: Cmd[]): void {
  if (dialog.kind === "permission") {
    const answer = (decision: "once" | "always" | "deny") => {
      cmds.push({ type: "worker", command: { type: "permission-reply", id: dialog.id, decision } });
      if (decision === "always") model.config.allowedTools.push(dialog.tool);
      model.dialog = null;
      // The time the user took to answer is not the tool's: its clock goes on from where it stood.
      const waited = Math.max(0, model.now - dialog.openedAt);
      for (const e of model.entries)
        if (e.kind === "tool" && e.state === "running" && e.startedAt) e.startedAt += waited;
    };
    if (key.ctrl && key.name === "c") {
      answer("deny");
      cmds.push({ type: "worker", command: { type: "cancel" } });
      return;
    }
    switch (key.name) {
      case "y":
      case "Y":
      case "enter":
        return answer("once");
      case "a":
      case "A":
        return answer("always");
      case "n":
      case "N":
        return answer("deny");
      case "escape":
        answer("deny");
        cmds.push({ type: "worker", command: { type: "cancel" } });
        return;
      default:
        return;
    }
  }
  if (dialog.kind === "mcp-trust") return applyMcpTrustKey(model, dialog, key, cmds);
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
      if (dialog.purpose === "session") {
        cmds.push({ type: "open-session", idOrPrefix: item.value });
        return;
      }
      chooseModel(model, item.value, cmds);
      if (key.name === "s") cmds.push({ type: "save-config", keys: { model: item.value } });
      return;
    }
    default:
      if (key.ctrl && key.name === "c") model.dialog = null;
  }
}

/** A new model means a new num_ctx and capabilities: the next run asks /api/show again. */
export function chooseModel(model: Model, name: string, cmds: Cmd[]): void {
  model.config.model = name;
  model.config.numCtx = 0;
  model.config.toolProtocol = "native";
  model.warm = false;
  // Resolve its context length and load it now, not when the next prompt is sent.
  cmds.push({ type: "worker", command: { type: "probe", config: plain(model.config) } });
  cmds.push({ type: "session-meta", fields: { model: name } });
  addEntry(model, { kind: "notice", level: "info", text: `Model: ${name} (used from the next request).` });
}
