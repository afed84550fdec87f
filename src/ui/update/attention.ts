// Drawing the user back: when a run ends or a permission question waits while the terminal is
// not focused (focus reporting, CSI ?1004h), ring the bell or send an OSC 9 notification.
import type { Model } from "../model.js";
import type { Cmd } from "../msg.js";

export function attend(model: Model, text: string, cmds: Cmd[]): void {
  if (model.focused || model.notify === "off") return;
  cmds.push({ type: "notify", mode: model.notify, text });
}
