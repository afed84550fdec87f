import type { Model } from "../model.js";
import { dialogRoom, inputRows, transcriptHeight } from "../layout/screen.js";
import { inputView } from "./input.js";
import { linesBelow, visibleTranscript } from "../layout/transcript.js";
import { dialogView } from "./dialog.js";
import type { DialogBox } from "../layout/dialog-box.js";
import { menuLines } from "./menu.js";
import { pinnedLines } from "../layout/pinned.js";
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
  /** Drawn across the width just above the status line; the transcript is that much shorter. */
  dialog?: DialogBox;
  /** Bracket the frame in synchronized output (the terminal said it knows mode 2026). */
  sync?: true;
}

/** view(model) -> Frame: pure; only the visible lines are produced. */
export function view(model: Model): Frame {
  const width = model.width;
  const dialog = model.dialog ? dialogView(model.dialog, width, dialogRoom(model)) : undefined;
  const tHeight = Math.max(1, transcriptHeight(model) - (dialog?.height ?? 0));
  const pinned = pinnedLines(model, width);
  const transcript = [...visibleTranscript(model, width, tHeight), ...pinned];
  const { lines, cursor } = model.historySearch ? searchInputView(model, width) : inputView(model, inputRows(model));
  const frame: Frame = {
    transcript,
    status: statusLine(model, width, tHeight),
    rule: modeRule(model, width),
    input: [...lines, ...menuLines(model, width)],
    cursor: { row: tHeight + pinned.length + (dialog?.height ?? 0) + 2 + cursor.row, col: cursor.col },
  };
  if (dialog) frame.dialog = dialog;
  if (model.syncOutput) frame.sync = true;
  return frame;
}

function statusLine(model: Model, width: number, tHeight: number): string {
  return fitStatus(
    statusSegments(model, () => linesBelow(model, width, tHeight)),
    width,
  );
}
