import { sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { padLine, truncateLine } from "../../render/wrap.js";
import type { Dialog, Model } from "../model.js";
import { inputRows, transcriptHeight } from "../layout/screen.js";
import { inputView } from "../layout/input.js";
import { linesBelow, visibleTranscript } from "../layout/transcript.js";
import { permissionView } from "../layout/permission.js";
import { mcpTrustView } from "./mcp-trust.js";
import { menuLines } from "./menu.js";
import { pinnedLines } from "./pinned.js";
import { modeRule } from "./modes.js";
import { fitStatus, statusSegments } from "./status.js";
import { searchInputView } from "./history.js";

/** Everything painted, as plain strings: runtime.ts is the only code that touches blessed. */
export interface Frame {
  transcript: string[];
  status: string;
  rule: string;
  input: string[];
  cursor: { row: number; col: number };
  dialog?: { title: string; lines: string[]; width: number; height: number };
}

/** view(model) -> Frame: pure; only the visible lines are produced. */
export function view(model: Model): Frame {
  const width = model.width;
  const tHeight = transcriptHeight(model);
  const pinned = pinnedLines(model, width);
  const transcript = [...visibleTranscript(model, width, tHeight), ...pinned];
  const { lines, cursor } = model.historySearch ? searchInputView(model, width) : inputView(model, inputRows(model));
  const frame: Frame = {
    transcript,
    status: statusLine(model, width, tHeight),
    rule: modeRule(model, width),
    input: [...lines, ...menuLines(model, width)],
    cursor: { row: tHeight + pinned.length + 2 + cursor.row, col: cursor.col },
  };
  if (model.dialog) frame.dialog = dialogView(model.dialog, width, model.height);
  return frame;
}

function statusLine(model: Model, width: number, tHeight: number): string {
  return fitStatus(
    statusSegments(model, () => linesBelow(model, width, tHeight)),
    width,
  );
}

function dialogView(dialog: Dialog, width: number, height: number): NonNullable<Frame["dialog"]> {
  // On a very narrow screen the dialog takes the whole width rather than overflow it.
  const w = Math.min(width, Math.max(20, Math.min(width - 4, 100)));
  const inner = w - 4;
  const maxBody = Math.max(3, height - 8);
  if (dialog.kind === "permission") return permissionView(dialog, width, height);
  if (dialog.kind === "mcp-trust") return mcpTrustView(dialog, w, maxBody);
  const visible = Math.min(dialog.items.length, maxBody);
  const first = Math.max(0, Math.min(dialog.selected - Math.floor(visible / 2), dialog.items.length - visible));
  const lines = dialog.items.slice(first, first + visible).map((item, i) => {
    const selected = first + i === dialog.selected;
    const text = `${selected ? "›" : " "} ${sanitizeLine(item.label)}${item.detail ? theme.dim("  " + sanitizeLine(item.detail)) : ""}`;
    return padLine(truncateLine(selected ? theme.user(text) : text, inner), inner);
  });
  return { title: ` ${sanitizeLine(dialog.title)} `, lines, width: w, height: lines.length + 2 };
}
