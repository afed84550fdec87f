// Permission modes from the keyboard: Shift+Tab cycles them, and a plan the model presented in
// plan mode can be approved with one key, which switches to auto-edit and carries it out.
import type { PermissionMode } from "../../protocol/run-config.js";
import type { Model } from "../model.js";
import type { Cmd, Key } from "../msg.js";
import { startRun } from "./run.js";

/** The Shift+Tab cycle; yolo joins it only when the app was started in yolo mode. */
export function modeCycle(model: Model): PermissionMode[] {
  return model.yoloInCycle ? ["ask", "auto-edit", "plan", "yolo"] : ["ask", "auto-edit", "plan"];
}

export const CARRY_OUT_PLAN = "Carry out the plan.";

/** Sets the mode for this session: the next run (and a running one, at its next tool call) uses it. */
export function setMode(model: Model, mode: PermissionMode, cmds: Cmd[]): void {
  model.config.permissionMode = mode;
  model.modeChosen = true;
  model.planReady = false;
  cmds.push({ type: "session-meta", fields: { permissionMode: mode } });
  if (model.run) cmds.push({ type: "worker", command: { type: "set-mode", runId: model.run.id, mode } });
}

export function cycleMode(model: Model, cmds: Cmd[]): void {
  const cycle = modeCycle(model);
  const at = cycle.indexOf(model.config.permissionMode);
  setMode(model, cycle[(at + 1) % cycle.length]!, cmds);
}

/** A run in plan mode ended with an answer: offer to carry the plan out. */
export function offerPlanApproval(model: Model, complete: boolean): void {
  const last = model.conversation[model.conversation.length - 1];
  model.planReady =
    complete && model.config.permissionMode === "plan" && last?.role === "assistant" && last.content.trim() !== "";
}

/**
 * The plan prompt has the keyboard while the input is empty: y/Enter carries the plan out,
 * n/Esc keeps planning. Any other key closes it and is typed as usual. Returns whether the key was used.
 */
export function applyPlanKey(model: Model, key: Key, cmds: Cmd[]): boolean {
  if (!model.planReady) return false;
  if (model.input.text !== "" || key.ctrl || key.meta) {
    model.planReady = false;
    return false;
  }
  switch (key.name) {
    case "y":
    case "Y":
    case "enter":
      setMode(model, "auto-edit", cmds);
      startRun(model, CARRY_OUT_PLAN, cmds);
      return true;
    case "n":
    case "N":
    case "escape":
      model.planReady = false;
      return true;
    default:
      model.planReady = false;
      return false;
  }
}
