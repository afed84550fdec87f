// The first screen's engine offer (protocol/engine-offer.ts): no server answered, and agent0 can run a
// model itself. Enter installs the engine and downloads the model (a Cmd, progress coming back as
// Msgs); Esc declines and the error stays as it was; Esc while it works stops it (a cut download
// resumes next time). Once done, the session uses the engine and the model.
import type { EngineOffer } from "../../protocol/engine-offer.js";
import type { EngineOfferDialog, Model } from "../model.js";
import type { Cmd, Key } from "../msg.js";
import { addEntry } from "./transcript.js";
import { plain } from "./plain.js";

/** Opens the offer unless another dialog has the keyboard (an answer pending is never covered). */
export function openEngineOffer(model: Model, offer: EngineOffer): void {
  if (model.dialog) return;
  model.dialog = { kind: "engine-offer", offer, progress: null };
}

export function applyEngineOfferKey(model: Model, dialog: EngineOfferDialog, key: Key, cmds: Cmd[]): void {
  if (key.name === "escape") {
    if (dialog.progress === null) model.dialog = null;
    else cmds.push({ type: "cancel-offer" });
    return;
  }
  if (key.name === "enter" && dialog.progress === null) {
    dialog.progress = "Starting…";
    cmds.push({ type: "accept-offer", offer: plain(dialog.offer) });
  }
}

export function applyOfferProgress(model: Model, line: string): void {
  if (model.dialog?.kind === "engine-offer") model.dialog.progress = line;
}

/**
 * The install and download ended: the failure is said, or the session moves to the engine and the
 * model to use is returned (the caller chooses it as /model does).
 */
export function applyOfferDone(model: Model, ok: boolean, message: string | undefined): string | undefined {
  const dialog = model.dialog?.kind === "engine-offer" ? model.dialog : undefined;
  model.dialog = null;
  if (!ok || !dialog) {
    addEntry(model, { kind: "error", message: message ?? "The engine offer was stopped." });
    return undefined;
  }
  model.config.provider = "embedded";
  return dialog.offer.model;
}
