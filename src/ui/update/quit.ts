import type { Model } from "../model.js";
import type { Cmd } from "../msg.js";
import { cancelRun } from "./run.js";
import { keepPartialAnswer } from "./agent.js";

/** Ctrl+D, /quit: a run going is stopped and its partial answer kept, then the app quits. */
export function quit(model: Model, cmds: Cmd[]): void {
  if (model.run) {
    cancelRun(model, cmds);
    keepPartialAnswer(model, cmds);
  }
  model.quitting = true;
  cmds.push({ type: "quit" });
}
