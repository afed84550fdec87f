// The engine offer: the model agent0 would run itself, its size and where it goes (and the engine
// first, when it is missing); once accepted, the install's or download's latest line (its bar).
import { sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import type { EngineOfferDialog } from "../model.js";
import { offerLines } from "../../protocol/engine-offer.js";
import { boxLine, type DialogBox } from "../layout/dialog-box.js";

export function engineOfferView(dialog: EngineOfferDialog, width: number): DialogBox {
  const inner = Math.max(1, width - 4);
  const body = offerLines(dialog.offer).map(sanitizeLine);
  const footer =
    dialog.progress === null
      ? theme.dim("Enter download and run it · Esc keep the error")
      : theme.dim("Esc stop (a cut download resumes next time)");
  const lines = [
    ...body,
    "",
    ...(dialog.progress === null ? [] : [theme.user(sanitizeLine(dialog.progress)), ""]),
    footer,
  ];
  const boxed = lines.map((l) => boxLine(l, inner));
  return { title: " Run a model in agent0? ", lines: boxed, width, height: boxed.length + 2 };
}
