// Claude Code's idle Notification: when the model has answered and the input then waits unused
// for 60 seconds ("Claude is waiting for your input", notification_type `idle_prompt`), the
// Notification hooks run — once per wait. The clock is the runtime's (an `after` Cmd); here the
// wait is a numbered value, so a key typed meanwhile starts the wait over and a run that began
// ends it.
import type { Model } from "../model.js";
import type { Cmd } from "../msg.js";
import { plain } from "./plain.js";

/** Claude Code's default (`messageIdleNotifThresholdMs`). */
export const IDLE_NOTIFY_MS = 60_000;

function wait(model: Model, cmds: Cmd[]): void {
  const seq = model.idle.seq + 1;
  model.idle = { ...model.idle, seq, armed: true, touched: false };
  cmds.push({ type: "after", ms: model.idle.ms, msg: { type: "idle-check", seq } });
}

/** A run ended with an answer: the wait starts, when a Notification hook would hear of it. */
export function armIdle(model: Model, cmds: Cmd[]): void {
  if (model.run || !model.config.hooks?.Notification?.length) return;
  wait(model, cmds);
}

/** The user typed: the input is not idle (the wait ends later, and starts over then). */
export function touchIdle(model: Model): void {
  if (model.idle.armed) model.idle.touched = true;
}

/** Wait `seq` is over: the hooks hear of it if nothing happened meanwhile; one notice per answer. */
export function checkIdle(model: Model, seq: number, cmds: Cmd[]): void {
  if (!model.idle.armed || seq !== model.idle.seq) return;
  if (model.run) {
    model.idle.armed = false;
    return;
  }
  if (model.idle.touched) return wait(model, cmds);
  model.idle.armed = false;
  cmds.push({
    type: "worker",
    command: {
      type: "notification",
      config: { ...plain(model.config), interactive: true },
      notificationType: "idle_prompt",
      message: "agent0 is waiting for your input",
    },
  });
}
